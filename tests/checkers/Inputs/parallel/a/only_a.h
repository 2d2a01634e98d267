// Only in a/: found through the command's relative -I. from a/ only.
#define WIDTH_A 48
