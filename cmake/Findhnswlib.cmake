# Findhnswlib: hnswlib is header-only; Debian 12 ships 0.6.2 in /usr/include/hnswlib.
# Creates the imported target hnswlib::hnswlib.
find_path(hnswlib_INCLUDE_DIR NAMES hnswlib/hnswlib.h)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(hnswlib REQUIRED_VARS hnswlib_INCLUDE_DIR)
if(hnswlib_FOUND AND NOT TARGET hnswlib::hnswlib)
  add_library(hnswlib::hnswlib INTERFACE IMPORTED)
  set_target_properties(hnswlib::hnswlib PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${hnswlib_INCLUDE_DIR}")
endif()
mark_as_advanced(hnswlib_INCLUDE_DIR)
