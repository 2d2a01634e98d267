// Included by host.cu before kernel.cu, which needs it.
#define WIDTH 16
