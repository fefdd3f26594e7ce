import Foundation
import TestSupport
import Testing

@testable import StudyInputs

/// The recogniser's byte search (used on the first 4 KiB of every JSON file in batch discovery) against
/// hand-made cases.
@Suite struct InputRecognizerByteSearchTests {
    @Test(arguments: [
        ("{\"_class\":\"ORKTaskResult\"}", "\"ORKTaskResult\"", true),
        ("xx\"ORKTaskResult\"", "\"ORKTaskResult\"", true),  // at the very end
        ("\"ORKTaskResult", "\"ORKTaskResult\"", false),  // cut one byte short
        ("", "\"_class\"", false),
        ("abc", "", true),
        ("ab", "abc", false),  // needle longer than the data
        ("{\"name\":\"Müller\"}", "Müller", true),  // multi-byte UTF-8
        ("{\"name\":\"Muller\"}", "Müller", false),
        ("ORKTASKRESULT", "ORKTaskResult", false),  // case matters
    ])
    func findsExactlyTheBytes(haystack: String, needle: String, expected: Bool) {
        #expect(InputRecognizer.contains(Data(haystack.utf8), needle) == expected)
    }

    @Test func aSliceIsSearchedFromItsOwnStart() {
        let data = Data("ORKTaskResult....".utf8).dropFirst(3)
        #expect(!InputRecognizer.contains(data, "ORKTask"))
        #expect(InputRecognizer.contains(data, "TaskResult"))
    }
}

/// The recogniser's folder walk against FileManager's enumerator (skipping hidden files, links not followed), the
/// reference it replaced for speed.
@Suite struct InputRecognizerWalkTests {
    static func enumeratorWalk(_ path: String) -> (files: [String], links: [String]) {
        let root = URL(fileURLWithPath: path)
        guard
            let enumerator = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey, .isSymbolicLinkKey],
                options: [.skipsHiddenFiles])
        else { return ([], []) }
        var files: [String] = []
        var links: [String] = []
        for case let url as URL in enumerator {
            let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .isSymbolicLinkKey])
            if values?.isSymbolicLink == true {
                links.append(url.path)
            } else if values?.isRegularFile == true {
                files.append(url.path)
            }
        }
        return (files.sorted(), links.sorted())
    }

    @Test func theWalkListsWhatTheEnumeratorLists() throws {
        let dir = TemporaryDirectory()
        let fm = FileManager.default
        let root = dir.path("tree")
        for folder in ["a/.hidden", "b/c/d", "e f"] {
            try fm.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        for file in ["x.json", "a/y.csv", "a/.h", "a/.hidden/z", "b/c/d/w.wav", "e f/ü.csv", "b/c/.DS_Store"] {
            #expect(fm.createFile(atPath: root + "/" + file, contents: Data("1".utf8)))
        }
        try fm.createSymbolicLink(atPath: root + "/b/link", withDestinationPath: "../x.json")
        try fm.createSymbolicLink(atPath: root + "/dangling", withDestinationPath: "/nonexistent/file")
        try fm.createSymbolicLink(atPath: root + "/folderlink", withDestinationPath: "b")
        #expect(mkfifo(root + "/fifo", 0o600) == 0)
        // Absolute paths only: changing the working directory would race with the tests running beside this one.
        let paths = [
            root, root + "/", root + "/./", root + "/a/../b", root + "/x.json", root + "/b/link", root + "/missing",
        ]
        for path in paths {
            let walked = InputRecognizer.walk(path)
            let reference = Self.enumeratorWalk(path)
            #expect(walked.files == reference.files, "\(path)")
            #expect(walked.links == reference.links, "\(path)")
        }
        #expect(InputRecognizer.walk(root).files.count == 4)
        #expect(InputRecognizer.walk(root).links.count == 3)
    }
}

/// The loader decides a CSV's dialect from its first record alone; hand-made cases.
@Suite struct CSVFirstRecordTests {
    @Test(arguments: [
        ("t,x,y,buttonid\n1,2,3,4\n", ["t", "x", "y", "buttonid"]),
        ("\u{FEFF}time_ms,ax,ay,az\r\n0,0,0,1\r\n", ["time_ms", "ax", "ay", "az"]),
        ("\"a\nb\",x\n1,2\n", ["a\nb", "x"]),  // a quoted line break belongs to the header
        ("\"say \"\"hi\"\"\",z\n", ["say \"hi\"", "z"]),
        ("only,one,line", ["only", "one", "line"]),  // no line break at all
        ("1012461540465,0.0,0.0\n", ["1012461540465", "0.0", "0.0"]),  // header-less: numbers, not names
    ])
    func theFirstRecordIsParsedAlone(text: String, expected: [String]) {
        #expect(InputLoader.firstRecord(of: Data(text.utf8), file: "x.csv") == expected)
    }

    @Test func anEmptyFileHasNoFirstRecord() {
        #expect(InputLoader.firstRecord(of: Data(), file: "x.csv").isEmpty)
    }
}
