#!/bin/sh
# A stand-in for clang++-22 in hermetic tests of warplint's clang register source: answers
# --version, and for a device compile prints the recorded AMDGPU assembly named by
# $WARPLINT_RECORDED_ASM (the metadata part of real clang 22 output, counts edited per
# test case). Real clang is exercised by check-hip-spill.test and hip-registers-e2e.
if [ "$1" = "--version" ]; then
  echo "recorded AMDGPU assembly (warplint tests) version 22"
  exit 0
fi
exec cat "$WARPLINT_RECORDED_ASM"
