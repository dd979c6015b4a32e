#!/usr/bin/env python3
"""Writes the bindings' mirrors of the C API from its one description, include/grappi/grappi.h.

    python3 tools/gen_bindings.py [--check] [ROOT]

From the header's constants (#define GRAPPI_... integer), typedefs (opaque structs, callbacks,
structs) and GRAPPI_API functions it writes, under ROOT (the repository; default: this file's
parent's parent):

- bindings/rust/grappi-sys/src/lib.rs: the raw Rust declarations (constants, #[repr(C)] structs,
  callback types, the extern "C" block) and `layout_of`, which the crate's tests compare with the
  C compiler's layout;
- bindings/python/grappi/_structs.py: the ctypes mirrors of every struct and callback type, with
  _MIRRORS (struct name -> class) and _VERSIONS (struct name -> the header's *_VERSION);
- tests/abi_layout.c: the program that prints the C compiler's layout of every struct as JSON.

The files are committed; `--check` writes nothing and exits 1 naming every file that differs from
what it would write (the test `bindings_generated` runs it). Not bindgen: its output varies with
its version; this reads the header's own regular declarations and refuses any it cannot read.
"""
import os
import re
import sys

RUST_SCALARS = {
    "uint32_t": "u32", "int32_t": "i32", "uint64_t": "u64", "int64_t": "i64", "size_t": "usize",
    "double": "c_double", "float": "c_float", "char": "c_char", "void": "c_void", "int": "i32",
}
PY_SCALARS = {
    "uint32_t": "ctypes.c_uint32", "int32_t": "ctypes.c_int32", "uint64_t": "ctypes.c_uint64",
    "int64_t": "ctypes.c_int64", "size_t": "ctypes.c_size_t", "double": "ctypes.c_double",
    "float": "ctypes.c_float", "int": "ctypes.c_int32",
}


def fail(message):
    sys.exit("gen_bindings.py: " + message)


def strip_comments(text):
    """The header without its comments; string literals (a URL in an _INIT macro) kept whole."""
    return re.sub(r'("(?:\\.|[^"\\\n])*")|/\*.*?\*/|//[^\n]*', lambda m: m.group(1) or " ", text, flags=re.S)


class CType:
    """A C type as written in a declaration: base name, constness of the base, pointer levels
    (each with its own const)."""

    def __init__(self, text):
        t = " ".join(text.replace("*", " * ").split())
        words = t.split(" ")
        self.const_base = False
        base = []
        i = 0
        while i < len(words) and words[i] != "*":
            if words[i] == "const":
                self.const_base = True
            else:
                base.append(words[i])
            i += 1
        if len(base) != 1:
            fail("cannot read the type '%s'" % text)
        self.base = base[0]
        self.pointers = []  # for each '*': whether the pointer itself is const
        while i < len(words):
            if words[i] != "*":
                fail("cannot read the type '%s'" % text)
            const = i + 1 < len(words) and words[i + 1] == "const"
            self.pointers.append(const)
            i += 2 if const else 1

    def rust(self, known):
        if self.base in RUST_SCALARS:
            r = RUST_SCALARS[self.base]
        elif self.base in known:
            r = self.base
        else:
            fail("unknown type '%s'" % self.base)
        # (the innermost pointer's constness is the base's; each outer one's the pointer's before it)
        consts = [self.const_base] + self.pointers[:-1]
        for c in consts[: len(self.pointers)]:
            r = ("*const " if c else "*mut ") + r
        return r


def split_decl(decl):
    """'const char *name' -> (CType, 'name')."""
    decl = " ".join(decl.split())
    m = re.fullmatch(r"(.*?[\s*])(\w+)", decl)
    if not m:
        fail("cannot read the declaration '%s'" % decl)
    return CType(m.group(1)), m.group(2)


def parse(header):
    text = strip_comments(re.sub(r"\\\n", " ", header))
    defines = []
    for m in re.finditer(r"^#define (GRAPPI_\w+)[ \t]+\(?(-?\d+)(u?)\)?[ \t]*$", text, re.M):
        defines.append((m.group(1), int(m.group(2)), m.group(3) == "u"))
    body = re.sub(r"^#.*$", " ", text, flags=re.M)
    items = []
    pattern = re.compile(
        r"typedef struct (?P<s>\w+) \{(?P<fields>.*?)\} (?P=s);"
        r"|typedef struct (?P<o>\w+) (?P=o);"
        r"|typedef (?P<fret>[^;()]+?)\(\*(?P<fname>\w+)\)\((?P<fargs>[^;]*?)\);"
        r"|typedef (?P<abase>\w+) (?P<alias>\w+);"
        r"|GRAPPI_API (?P<ret>[^;()]+?)\b(?P<name>grappi_\w+)\((?P<args>[^;]*?)\);",
        re.S)
    for m in pattern.finditer(body):
        if m.group("s"):
            fields = [split_decl(d) for d in m.group("fields").split(";") if d.strip()]
            items.append(("struct", m.group("s"), fields))
        elif m.group("o"):
            items.append(("opaque", m.group("o"), None))
        elif m.group("fname"):
            items.append(("callback", m.group("fname"), (CType(m.group("fret")), args_of(m.group("fargs")))))
        elif m.group("alias"):
            items.append(("alias", m.group("alias"), m.group("abase")))
        else:
            items.append(("function", m.group("name"), (CType(m.group("ret")), args_of(m.group("args")))))
    # Every GRAPPI_API line of the header must have been read.
    declared = len(re.findall(r"\bGRAPPI_API\b", body))
    read = sum(1 for kind, _, _ in items if kind == "function")
    if declared != read:
        fail("read %d of the header's %d GRAPPI_API declarations" % (read, declared))
    return defines, items


def args_of(text):
    text = " ".join(text.split())
    if text in ("", "void"):
        return []
    return [split_decl(a) for a in text.split(",")]


def camel(struct):
    return "_" + "".join(w.capitalize() for w in struct[len("grappi_"):].split("_"))


def rust_fn(ret, args, known):
    params = ", ".join("%s: %s" % (n, t.rust(known)) for t, n in args)
    r = "" if (ret.base == "void" and not ret.pointers) else " -> " + ret.rust(known)
    return params, r


def wrap(line, indent, width=120):
    """Breaks a long declaration after commas, continuation lines indented by `indent`."""
    if len(line) <= width:
        return [line]
    # (at the commas of the outermost list: between fields or parameters, never inside one)
    depth, at = 0, []
    for i, c in enumerate(line):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "," and line[i + 1:i + 2] == " ":
            at.append((depth, i))
    if not at:
        return [line]
    outer = min(d for d, _ in at)
    parts, start = [], 0
    for d, i in at:
        if d == outer:
            parts.append(line[start:i + 1])
            start = i + 2
    parts.append(line[start:])
    out, current = [], ""
    for part in parts:
        if current and len(current) + 1 + len(part) > width:
            out.append(current)
            current = indent + part
        else:
            current = current + (" " if current else "") + part
    out.append(current)
    return out


def rust_lib(defines, items):
    known = {name for kind, name, _ in items if kind in ("struct", "opaque", "callback", "alias")}
    versions = {n: v for n, v, _ in defines if n.endswith("_VERSION")}
    out = ["//! Raw, unsafe declarations of grappi's C API (`grappi/grappi.h`), written by",
           "//! tools/gen_bindings.py from the header: do not edit. Every struct mirrors the header at the",
           "//! version named by its `*_VERSION` constant; the crate's tests compare their layouts with the",
           "//! C compiler's (`layout_of` below).",
           "#![allow(non_camel_case_types)]",
           "use std::os::raw::{c_char, c_double, c_float, c_void};", ""]
    for kind, name, base in items:
        if kind == "alias":
            out.append("pub type %s = %s;" % (name, RUST_SCALARS.get(base, base)))
    for n, v, unsigned in defines:
        if n.endswith("_VERSION"):
            continue
        if re.fullmatch(r"GRAPPI_(OK|E[A-Z]+)", n):
            out.append("pub const %s: grappi_status = %d;" % (n, v))
        else:
            out.append("pub const %s: %s = %d;" % (n, "u32" if unsigned else "i32", v))
    out.append("")
    for kind, name, data in items:
        if kind == "opaque":
            out += ["#[repr(C)]", "pub struct %s {" % name, "    _private: [u8; 0],", "}", ""]
        elif kind == "callback":
            ret, args = data
            params, r = rust_fn(ret, args, known)
            out += wrap("pub type %s = Option<unsafe extern \"C\" fn(%s)%s>;" % (name, params, r), "    ")
            out.append("")
        elif kind == "struct":
            vname = "GRAPPI_%s_VERSION" % name[len("grappi_"):].upper()
            if vname in versions:
                out.append("pub const %s: u32 = %d;" % (vname, versions[vname]))
            out += ["#[repr(C)]", "pub struct %s {" % name]
            for t, f in data:
                out.append("    pub %s: %s," % (f, t.rust(known)))
            out += ["}", ""]
    out.append('extern "C" {')
    for kind, name, data in items:
        if kind == "function":
            ret, args = data
            params, r = rust_fn(ret, args, known)
            out += wrap("    pub fn %s(%s)%s;" % (name, params, r), " " * (12 + len(name)))
    out += ["}", "",
            "/// (size, [(field, offset, size)]) of a mirrored struct, for comparison with the C compiler's",
            "/// layout (`tests/abi_layout.c`). Offsets are taken from a value, without `offset_of!`.",
            "pub fn layout_of(name: &str) -> Option<(usize, Vec<(&'static str, usize, usize)>)> {",
            "    use std::mem::{size_of, MaybeUninit};",
            "    fn pointee_size<T>(_: *const T) -> usize {",
            "        size_of::<T>()",
            "    }",
            "    macro_rules! layout {",
            "        ($t:ty; $($f:ident),*) => {{",
            "            let v = MaybeUninit::<$t>::uninit();",
            "            let base = v.as_ptr() as usize;",
            "            let mut fields = Vec::new();",
            "            $(",
            "                // SAFETY: only the field's address is taken; nothing is read.",
            "                let p = unsafe { std::ptr::addr_of!((*v.as_ptr()).$f) };",
            "                fields.push((stringify!($f), p as usize - base, pointee_size(p)));",
            "            )*",
            "            Some((size_of::<$t>(), fields))",
            "        }};",
            "    }",
            "    match name {"]
    for kind, name, data in items:
        if kind == "struct":
            line = '        "%s" => layout!(%s; %s),' % (name, name, ", ".join(f for _, f in data))
            out += wrap(line, " " * 12)
    out += ["        _ => None,", "    }", "}", ""]
    return "\n".join(out)


def py_type(t, mirrored, callbacks):
    """The ctypes type of a field: a mirrored struct defined before it by value or as POINTER(...)."""
    if not t.pointers:
        if t.base in PY_SCALARS:
            return PY_SCALARS[t.base]
        if t.base in callbacks:
            return callbacks[t.base]
        if t.base in mirrored:  # (a struct embedded by value, mirrored before)
            return mirrored[t.base]
        fail("no ctypes type for '%s'" % t.base)
    if len(t.pointers) == 1:
        if t.base == "char":
            return "ctypes.c_char_p"
        if t.base == "void":
            return "ctypes.c_void_p"
        if t.base in PY_SCALARS:
            return "ctypes.POINTER(%s)" % PY_SCALARS[t.base]
        if t.base in mirrored:
            return "ctypes.POINTER(%s)" % mirrored[t.base]
        return "ctypes.c_void_p"  # (an opaque handle)
    if len(t.pointers) == 2 and t.base == "char":
        return "ctypes.POINTER(ctypes.c_char_p)"
    fail("no ctypes type for a field of type %s%s" % (t.base, "*" * len(t.pointers)))


def py_structs(defines, items):
    versions = {n: v for n, v, _ in defines if n.endswith("_VERSION")}
    out = ['"""ctypes mirrors of grappi.h\'s structs and callback types, written by tools/gen_bindings.py',
           'from the header: do not edit. The tests compare their layouts with the C compiler\'s',
           '(_MIRRORS); _VERSIONS holds the version each struct is written at."""',
           "import ctypes", "", ""]
    callbacks, mirrored = {}, {}
    for kind, name, data in items:
        if kind == "callback":
            ret, args = data
            pname = "_" + name[len("grappi_"):].upper()
            callbacks[name] = pname
            r = "None" if (ret.base == "void" and not ret.pointers) else py_type(ret, mirrored, callbacks)
            params = [py_type(t, mirrored, callbacks) for t, _ in args]
            out += wrap("%s = ctypes.CFUNCTYPE(%s)" % (pname, ", ".join([r] + params)), " " * (len(pname) + 19))
            out += ["", ""]
        elif kind == "struct":
            cls = camel(name)
            fields = ["(\"%s\", %s)" % (f, py_type(t, mirrored, callbacks)) for t, f in data]
            out.append("class %s(ctypes.Structure):" % cls)
            out += wrap("    _fields_ = [%s]" % ", ".join(fields), " " * 16, 120)
            out += ["", ""]
            mirrored[name] = cls
    out.append("_MIRRORS = {")
    for name, cls in mirrored.items():
        out.append("    \"%s\": %s," % (name, cls))
    out.append("}")
    out.append("_VERSIONS = {")
    for name in mirrored:
        v = versions.get("GRAPPI_%s_VERSION" % name[len("grappi_"):].upper())
        if v is not None:
            out.append("    \"%s\": %d," % (name, v))
    out.append("}")
    out.append("")
    return "\n".join(out)


def abi_layout(items):
    out = ["/* Prints the layout of every struct of grappi.h as JSON: {\"struct\": {\"size\": n, \"fields\":",
           " * {\"field\": [offset, size], ...}}, ...}. Written by tools/gen_bindings.py from the header: do",
           " * not edit. The binding tests compare their generated mirrors of these structs (Python ctypes,",
           " * Rust #[repr(C)]) with it. */",
           "#include <grappi/grappi.h>", "#include <stddef.h>", "#include <stdio.h>", "",
           "static int first_struct = 1, first_field = 1;", "",
           "static void begin(const char *name, size_t size) {",
           "  printf(\"%s\\n \\\"%s\\\": {\\\"size\\\": %zu, \\\"fields\\\": {\", first_struct ? \"{\" : \",\", name, size);",
           "  first_struct = 0;", "  first_field = 1;", "}",
           "static void field(const char *name, size_t offset, size_t size) {",
           "  printf(\"%s\\\"%s\\\": [%zu, %zu]\", first_field ? \"\" : \", \", name, offset, size);",
           "  first_field = 0;", "}",
           "static void end(void) { printf(\"}}\"); }", "",
           "#define BEGIN(T) begin(#T, sizeof(T))",
           "#define FIELD(T, f) field(#f, offsetof(T, f), sizeof(((T *)0)->f))", "",
           "int main(void) {"]
    for kind, name, data in items:
        if kind == "struct":
            out.append("  BEGIN(%s);" % name)
            for _, f in data:
                out.append("  FIELD(%s, %s);" % (name, f))
            out.append("  end();")
            out.append("")
    out += ["  printf(\"\\n}\\n\");", "  return 0;", "}", ""]
    return "\n".join(out)


def main():
    args = sys.argv[1:]
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    root = args[0] if args else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "include/grappi/grappi.h"), encoding="utf-8") as f:
        defines, items = parse(f.read())
    if sum(1 for k, _, _ in items if k == "struct") < 10:
        fail("fewer than 10 structs read from grappi.h")
    files = {"bindings/rust/grappi-sys/src/lib.rs": rust_lib(defines, items),
             "bindings/python/grappi/_structs.py": py_structs(defines, items),
             "tests/abi_layout.c": abi_layout(items)}
    differ = []
    for rel, text in files.items():
        path = os.path.join(root, rel)
        old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if old == text:
            continue
        if check:
            differ.append(rel)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            print("wrote " + rel)
    if differ:
        print("gen_bindings.py: not as the header gives them (run python3 tools/gen_bindings.py): " + ", ".join(differ),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
