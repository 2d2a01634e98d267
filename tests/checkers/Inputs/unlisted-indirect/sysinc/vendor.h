// A header on -isystem (a vendor's or the toolkit's): the search for the file that
// includes a kernel file does not look into such headers' includes.
#include "../src/kernels/vendored.cu"
