//===- main.cpp - the warplint command line tool's entry point ------------===//
#include "driver/commands/Commands.h"

int main(int Argc, char **Argv) { return warplint::driver::runMain(Argc, Argv); }
