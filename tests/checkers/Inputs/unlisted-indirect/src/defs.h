// Included by main.cu before app.h; the kernel files need it and do not include it.
#define WIDTH 16
