#ifndef CFFTW_SHIM_H
#define CFFTW_SHIM_H
#include <fftw3.h>

/// `fftw_version` is declared as an incomplete array (`extern const char fftw_version[]`),
/// which Swift cannot import; this returns it as a plain C string.
static inline const char *cfftw_version(void) { return fftw_version; }

#endif
