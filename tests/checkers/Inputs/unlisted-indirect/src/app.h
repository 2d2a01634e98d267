// main.cu's second header: a kernel file on the include path (-I../src), and another
// header that includes the next kernel file.
#include <kernels/fwd.cu>
#include "nested.h"
