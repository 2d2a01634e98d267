// Only in b/: found through the command's relative -I. from b/ only.
#define WIDTH_B 64
