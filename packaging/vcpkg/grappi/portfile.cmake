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

# cytoscape.js, which the HTML reports embed: the version web/package-lock.json pins, from the
# npm registry (its SHA-512 is the lock file's integrity).
vcpkg_download_distfile(CYTOSCAPE_ARCHIVE
  URLS "https://registry.npmjs.org/cytoscape/-/cytoscape-3.34.4.tgz"
  FILENAME "cytoscape-3.34.4.tgz"
  SHA512 9ac63df6d318f2259383eb083c67d2a8370f34eb78c5c8febff2bfeea505682531c65aa73245182c18d15339fd5b9094fd1da1ae6b496b9f94b68beb10cd9cb6
)
vcpkg_extract_source_archive(CYTOSCAPE_PATH ARCHIVE "${CYTOSCAPE_ARCHIVE}")

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
    "-DGRAPPI_CYTOSCAPE_JS=${CYTOSCAPE_PATH}/dist/cytoscape.min.js"
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
