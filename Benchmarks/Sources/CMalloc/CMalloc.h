// glibc's allocator statistics (mallinfo2, malloc_trim), which the Glibc module leaves out.
#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#endif
