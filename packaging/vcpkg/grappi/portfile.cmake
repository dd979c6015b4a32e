# vcpkg overlay port for grappi: vcpkg install grappi --overlay-ports=packaging/vcpkg
# (from a release tarball; for a local checkout set SOURCE_PATH to it instead of downloading).
if(DEFINED ENV{GRAPPI_SOURCE_DIR})
  set(SOURCE_PATH "$ENV{GRAPPI_SOURCE_DIR}")
else()
  vcpkg_from_github(
    OUT_SOURCE_PATH SOURCE_PATH
    REPO grappi/grappi
    REF "v${VERSION}"
    SHA512 0
    HEAD_REF main
  )
endif()

vcpkg_check_features(OUT_FEATURE_OPTIONS FEATURE_OPTIONS
  FEATURES
    tools GRAPPI_BUILD_TOOLS
)

vcpkg_cmake_configure(
  SOURCE_PATH "${SOURCE_PATH}"
  OPTIONS
    ${FEATURE_OPTIONS}
    -DGRAPPI_BUILD_TESTS=OFF
    -DGRAPPI_BUILD_EXAMPLES=OFF
    -DGRAPPI_BUILD_BENCHMARKS=OFF
    -DGRAPPI_WERROR=OFF
)
vcpkg_cmake_install()
vcpkg_cmake_config_fixup(PACKAGE_NAME grappi CONFIG_PATH lib/cmake/grappi)
vcpkg_fixup_pkgconfig()
if("tools" IN_LIST FEATURES)
  vcpkg_copy_tools(TOOL_NAMES grappi AUTO_CLEAN)
endif()

file(REMOVE_RECURSE "${CURRENT_PACKAGES_DIR}/debug/include" "${CURRENT_PACKAGES_DIR}/debug/share")
file(INSTALL "${CMAKE_CURRENT_LIST_DIR}/usage" DESTINATION "${CURRENT_PACKAGES_DIR}/share/${PORT}")
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")
