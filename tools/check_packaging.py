#!/usr/bin/env python3
"""Checks that the vcpkg port and the Conan recipe (which cannot run offline) name the real
CMake options, targets, version, install paths and dependencies of this source tree.
Usage: tools/check_packaging.py SOURCE_DIR BUILD_DIR"""
import ast
import glob
import json
import os
import re
import sys

root, build = sys.argv[1], sys.argv[2]
errors = []


def read(*p):
    with open(os.path.join(root, *p), encoding="utf-8") as f:
        return f.read()


cml = read("CMakeLists.txt")
version = re.search(r"project\(grappi VERSION (\d+\.\d+\.\d+)", cml).group(1)
options = set(re.findall(r"option\((\w+)", cml)) | set(re.findall(r"set\((\w+) [^)]*CACHE", cml))
# Targets as CMake exports them (generated at configure time in the build tree).
exports = glob.glob(os.path.join(build, "CMakeFiles", "Export", "*", "grappiTargets.cmake"))
if not exports:
    sys.exit("no grappiTargets.cmake under %s/CMakeFiles/Export: configure the build first" % build)
targets = set(re.findall(r"add_library\((grappi::\w+) ", open(exports[0], encoding="utf-8").read()))
if targets != {"grappi::grappi", "grappi::grappi_c"}:
    errors.append("exported targets are %s" % sorted(targets))
install_dir = re.search(r"install\(EXPORT grappiTargets NAMESPACE grappi:: DESTINATION \$\{CMAKE_INSTALL_LIBDIR\}/(\S+)\)", cml)
if not install_dir or install_dir.group(1) != "cmake/grappi":
    errors.append("CMakeLists.txt: the export is not installed to lib/cmake/grappi")
packages = set(re.findall(r"find_package\((\w+)", cml))

# ---- vcpkg -------------------------------------------------------------------------------------
port = json.loads(read("packaging", "vcpkg", "grappi", "vcpkg.json"))
if port["version"] != version:
    errors.append("vcpkg.json version %s != project version %s" % (port["version"], version))
deps = {d if isinstance(d, str) else d["name"] for d in port["dependencies"]}
tool_deps = set(port.get("features", {}).get("tools", {}).get("dependencies", []))
vcpkg_port_of = {"SQLite3": "sqlite3", "ZLIB": "zlib", "OpenSSL": "openssl", "nlohmann_json": "nlohmann-json",
                 "Eigen3": "eigen3", "hnswlib": "hnswlib", "CURL": "curl", "LibXml2": "libxml2", "CLI11": "cli11",
                 "httplib": "cpp-httplib"}
for pkg in packages:
    if pkg in ("Threads", "doctest", "benchmark", "Doxygen", "Python3", "PkgConfig"):
        continue
    if pkg not in vcpkg_port_of:
        errors.append("find_package(%s) has no vcpkg port mapping in check_packaging.py" % pkg)
        continue
    want = vcpkg_port_of[pkg]
    if pkg in ("CLI11", "httplib"):  # the command-line program's only
        if want not in tool_deps:
            errors.append("vcpkg.json: the tools feature must depend on %s" % want)
    elif want not in deps:
        errors.append("vcpkg.json: missing dependency %s (find_package(%s))" % (want, pkg))
if port.get("supports") != "linux":
    errors.append("vcpkg.json: supports must be \"linux\" (the platform grappi is built and tested on)")
portfile = read("packaging", "vcpkg", "grappi", "portfile.cmake")
for opt in set(re.findall(r"-D(\w+)=", portfile)) | set(re.findall(r"tools (\w+)", portfile)):
    if opt not in options:
        errors.append("portfile.cmake sets %s, which CMakeLists.txt does not define" % opt)
if "vcpkg_cmake_config_fixup(PACKAGE_NAME grappi CONFIG_PATH lib/cmake/grappi)" not in portfile:
    errors.append("portfile.cmake: config fixup must use PACKAGE_NAME grappi CONFIG_PATH lib/cmake/grappi")
usage = read("packaging", "vcpkg", "grappi", "usage")
if "find_package(grappi CONFIG REQUIRED)" not in usage:
    errors.append("usage: no find_package(grappi CONFIG REQUIRED)")
for t in set(re.findall(r"grappi::\w+", usage)) - targets:
    errors.append("usage names %s, which is not exported" % t)
if not os.path.exists(os.path.join(root, "cmake", "grappi.pc.in")) and "grappi.pc" not in cml:
    errors.append("usage mentions pkg-config but no grappi.pc is installed")

# ---- Conan -------------------------------------------------------------------------------------
recipe = read("packaging", "conan", "conanfile.py")
tree = ast.parse(recipe)
cls = next(n for n in tree.body if isinstance(n, ast.ClassDef))
attrs = {t.id: n.value for n in cls.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
if ast.literal_eval(attrs["version"]) != version:
    errors.append("conanfile.py version != project version %s" % version)
if ast.literal_eval(attrs["name"]) != "grappi":
    errors.append("conanfile.py name is not grappi")
for opt in re.findall(r'tc\.variables\["(\w+)"\]', recipe):
    if opt not in options:
        errors.append("conanfile.py sets %s, which CMakeLists.txt does not define" % opt)
for t in set(re.findall(r'"cmake_target_name", "([^"]+)"', recipe)) ^ targets:
    errors.append("conanfile.py and the export disagree on target %s" % t)
if '"cmake_file_name", "grappi"' not in recipe:
    errors.append('conanfile.py must set cmake_file_name "grappi"')
for src in ast.literal_eval(attrs["exports_sources"]):
    base = src.split("/")[0]
    if not glob.glob(os.path.join(root, base)):
        errors.append("conanfile.py exports %s, which does not exist" % src)
conan_pkg_of = {"SQLite3": "sqlite3/", "ZLIB": "zlib/", "OpenSSL": "openssl/", "nlohmann_json": "nlohmann_json/",
                "Eigen3": "eigen/", "hnswlib": "hnswlib/", "CURL": "libcurl/", "LibXml2": "libxml2/", "CLI11": "cli11/",
                "httplib": "cpp-httplib/"}
for pkg in packages:
    if pkg in conan_pkg_of and 'self.requires("%s' % conan_pkg_of[pkg] not in recipe:
        errors.append("conanfile.py: missing requirement %s (find_package(%s))" % (conan_pkg_of[pkg], pkg))
# The HTML reports embed cytoscape.js: both recipes fetch the version web/package-lock.json pins.
lock = json.loads(read("web", "package-lock.json"))
cytoscape = lock["packages"]["node_modules/cytoscape"]
for name, text in (("portfile.cmake", portfile), ("conanfile.py", recipe)):
    if "cytoscape-%s.tgz" % cytoscape["version"] not in text:
        errors.append("%s does not fetch cytoscape %s (web/package-lock.json)" % (name, cytoscape["version"]))
    if "GRAPPI_CYTOSCAPE_JS" not in text:
        errors.append("%s does not pass GRAPPI_CYTOSCAPE_JS" % name)
if 'raise ConanInvalidConfiguration' not in recipe or 'self.settings.os != "Linux"' not in recipe:
    errors.append("conanfile.py: validate() must refuse platforms other than Linux")
tp = read("packaging", "conan", "test_package", "CMakeLists.txt")
for t in set(re.findall(r"grappi::\w+", tp)) - targets:
    errors.append("test_package names %s, which is not exported" % t)

if errors:
    print("\n".join("packaging: " + e for e in errors))
    sys.exit(1)
print("packaging recipes match CMakeLists.txt (version %s, targets %s, %d options)" % (version, sorted(targets), len(options)))
