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
    package static func sortedNames(_ dir: String) -> [String] { listing(dir).names }

    /// Everything in one folder, sorted in byte order, read with `readdir` so that nothing is lost on the way.
    package struct Listing: Sendable {
        /// Visible entries.
        package var names: [String] = []
        /// Hidden entries (a leading dot) and `__MACOSX`.
        package var hidden: [String] = []
        /// Entries whose names are not valid UTF-8, with each invalid byte written `\xHH`: they cannot be named in
        /// the outputs (nor opened through a Swift path), so the caller reports them.
        package var undecodable: [String] = []
        /// The errno when the folder itself could not be opened (permission denied); nil when it was listed.
        package var error: Int32?
    }

    /// Lists `dir`.
    package static func listing(_ dir: String) -> Listing {
        var result = Listing()
        guard let handle = opendir(dir) else {
            result.error = errno
            return result
        }
        defer { closedir(handle) }
        // The name is read through a pointer up to its NUL: a dirent is as long as its name, so copying the whole
        // 256-byte d_name field can read past the end of the buffer readdir filled (a crash at a page end).
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 19
        while let entry = readdir(handle) {
            let name = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: UInt8.self)
            let bytes = Array(
                UnsafeBufferPointer(
                    start: name, count: strlen(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))))
            if bytes == [0x2E] || bytes == [0x2E, 0x2E] { continue }
            guard let name = String(validating: bytes, as: UTF8.self) else {
                result.undecodable.append(escaped(bytes))
                continue
            }
            if name.hasPrefix(".") || name == "__MACOSX" {
                result.hidden.append(name)
            } else {
                result.names.append(name)
            }
        }
        result.names.sort(by: precedes)
        result.hidden.sort(by: precedes)
        result.undecodable.sort(by: precedes)
        return result
    }

    /// A file name's bytes with every byte of an invalid UTF-8 sequence written `\xHH`.
    package static func escaped(_ bytes: [UInt8]) -> String {
        var out = ""
        var i = 0
        while i < bytes.count {
            // The longest valid UTF-8 sequence starting here (1 to 4 bytes), else one escaped byte.
            var taken = false
            for length in 1...4 where i + length <= bytes.count {
                if let text = String(validating: bytes[i..<(i + length)], as: UTF8.self) {
                    out += text
                    i += length
                    taken = true
                    break
                }
            }
            if !taken {
                out += "\\x" + String(bytes[i], radix: 16, uppercase: true).leftPadded(to: 2)
                i += 1
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
