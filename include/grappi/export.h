/* grappi/export.h — symbol export macro of the C API. */
#ifndef GRAPPI_EXPORT_H
#define GRAPPI_EXPORT_H

#if defined(GRAPPI_C_STATIC)
#define GRAPPI_API
#elif defined(_WIN32)
#if defined(GRAPPI_C_BUILDING)
#define GRAPPI_API __declspec(dllexport)
#else
#define GRAPPI_API __declspec(dllimport)
#endif
#else
#define GRAPPI_API __attribute__((visibility("default")))
#endif

#endif
