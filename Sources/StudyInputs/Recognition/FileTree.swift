import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file-system facts every stage reads the same way: the byte order of names, what a path is (without following
/// a link), and the visible entries of a folder.
public enum FileTree {
    /// Byte-order comparison of UTF-8 strings: the one order every batch output uses.
    public static func precedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    /// Relative paths of the regular files under `folder` (hidden files skipped, links not followed), sorted.
    package static func filesUnder(_ folder: String) -> [String] {
        var out: [String] = []
        func walk(_ dir: String, _ prefix: String) {
            for name in sortedNames(dir) {
                let path = dir + "/" + name
                switch fileType(path) {
                case .directory: walk(path, prefix + name + "/")
                case .regular: out.append(prefix + name)
                default: break
                }
            }
        }
        walk(folder, "")
        return out
    }

    package enum FileType { case regular, directory, link, other, missing }

    package static func fileType(_ path: String) -> FileType {
        var st = stat()
        guard lstat(path, &st) == 0 else { return .missing }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        case S_IFLNK: return .link
        default: return .other
        }
    }

    /// Visible entries of a folder in byte order (hidden files and `__MACOSX` left out).
    package static func sortedNames(_ dir: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { !$0.hasPrefix(".") && $0 != "__MACOSX" }.sorted(by: precedes)
    }
}
