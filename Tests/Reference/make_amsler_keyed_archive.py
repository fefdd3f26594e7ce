#!/usr/bin/env python3
"""Writes Tests/Fixtures/scored-archive/amslergrid.keyed.plist: an Amsler-grid task result archived
the way NSKeyedArchiver writes it (binary property list, $objects with $class references), with the keys
ORKAmslerGridResult's encodeWithCoder: uses (path, eyeSide, imageFileResult, drawingPathFileResult). The right eye's
`path` holds three UIBezierPath objects; their contents are schematic (taskproc only counts them), so only the class
matters. Uses only Python's plistlib.

Usage: python3 Tests/Reference/make_amsler_keyed_archive.py OUTPUT
"""
import plistlib
import sys
import uuid

from keyed_archive import KeyedArchive, since2001

_archive = KeyedArchive()
add, cls, nsdate, array, string = _archive.add, _archive.cls, _archive.nsdate, _archive.array, _archive.string
objects = _archive.objects


T0 = since2001(2024, 5, 5, 23, 0, 45)


RESULT = ["ORKResult", "NSObject"]
COLLECTION = ["ORKCollectionResult"] + RESULT


def file_result(identifier, name):
    return add({"$class": cls("ORKFileResult", RESULT), "identifier": add(identifier), "fileName": add(name)})


paths = [add({"$class": cls("UIBezierPath", ["NSObject"]), "UIBezierPathCGPathData": b"\x00"}) for _ in range(3)]
grid = add({"$class": cls("ORKAmslerGridResult", RESULT), "identifier": add("amsler.grid.right"),
            "startDate": nsdate(T0), "endDate": nsdate(T0 + 30), "eyeSide": 2, "path": array(paths),
            "imageFileResult": file_result("ImageFileResultIdentifier", "amsler.grid.right.png"),
            "drawingPathFileResult": file_result("DrawingPathFileResultIdentifier", "amsler.grid.right.dat")})
step = add({"$class": cls("ORKStepResult", COLLECTION), "identifier": add("amsler.grid.right"),
            "startDate": nsdate(T0), "endDate": nsdate(T0 + 30), "results": array([grid])})
run = add({"$class": cls("NSUUID", ["NSObject"]),
           "NS.uuidbytes": uuid.UUID("4E5F6071-8293-4A4B-9C5D-6E7F80910A1B").bytes})
task = add({"$class": cls("ORKTaskResult", COLLECTION), "identifier": add("amslerGrid"), "taskRunUUID": run,
            "startDate": nsdate(T0 - 5), "endDate": nsdate(T0 + 35), "results": array([step])})

archive = {"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": task}, "$objects": objects}
with open(sys.argv[1], "wb") as f:
    f.write(plistlib.dumps(archive, fmt=plistlib.FMT_BINARY))
