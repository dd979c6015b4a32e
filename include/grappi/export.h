/* grappi/export.h — symbol export macros.
 *
 * GRAPPI_API marks the functions of the C API (grappi.h); GRAPPI_CXX_API the classes and
 * functions of the public C++ API (the grappi/ .hpp headers). Everything else in the libraries is built
 * with hidden visibility, so that the libraries export nothing of their dependencies (SQLite,
 * nlohmann/json, hnswlib, Eigen) or of grappi's internals. */
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

#if defined(GRAPPI_STATIC)
#define GRAPPI_CXX_API
#elif defined(_WIN32)
#if defined(GRAPPI_BUILDING)
#define GRAPPI_CXX_API __declspec(dllexport)
#else
#define GRAPPI_CXX_API __declspec(dllimport)
#endif
#else
#define GRAPPI_CXX_API __attribute__((visibility("default")))
#endif

#endif
