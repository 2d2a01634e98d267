// warplint's own minimal HIP header: hipExtLaunchKernelGGL is declared in hip_runtime.h.
#pragma once
#include "hip_runtime.h"
