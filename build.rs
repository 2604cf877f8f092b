//! Embeds the demo site (examples/demo) in the `lectern` binary so `lectern
//! serve --demo` works from an installed binary, far from the source tree.

use std::path::{Path, PathBuf};

fn main() {
    // Read at run time: a build script compiled for another checkout of this
    // package (sharing the target folder) must still embed this one's demo.
    let root = std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let demo = Path::new(&root).join("examples/demo");
    let demo = demo.canonicalize().expect("examples/demo exists in the package");
    println!("cargo:rerun-if-changed={}", demo.display());
    let mut files = Vec::new();
    walk(&demo, &mut files);
    files.sort();
    let mut out = String::from(
        "/// Every file of examples/demo: (path relative to the demo folder, contents).\npub static DEMO_FILES: &[(&str, &str)] = &[\n",
    );
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let rel = f.strip_prefix(&demo).expect("under demo").to_str().expect("UTF-8 path");
        out.push_str(&format!("    ({rel:?}, include_str!({:?})),\n", f.to_str().expect("UTF-8 path")));
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("demo_files.rs");
    std::fs::write(dest, out).expect("write demo_files.rs");
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read demo folder") {
        let path = entry.expect("demo entry").path();
        if path.is_dir() {
            println!("cargo:rerun-if-changed={}", path.display());
            walk(&path, files);
        } else {
            files.push(path);
        }
    }
}
