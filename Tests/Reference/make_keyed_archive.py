#!/usr/bin/env python3
"""Writes Tests/Fixtures/survey/registration.keyed.plist: a ResearchKit task result archived the way
NSKeyedArchiver writes it (a binary property list: $archiver, $version, $top.root, $objects with $class references
to {$classname, $classes}), with the classes and keys ResearchKit's encodeWithCoder: uses (each property under its
own name). The values are those of registration.json plus a scale, a Boolean and a time of day, so the test can
compare the two readings. Uses only Python's plistlib (which writes NSKeyedArchiver UIDs).

Usage: python3 Tests/Reference/make_keyed_archive.py OUTPUT
"""
import plistlib
import sys
import uuid

from keyed_archive import KeyedArchive, since2001

_archive = KeyedArchive()
add, cls, nsdate, array, string = _archive.add, _archive.cls, _archive.nsdate, _archive.array, _archive.string
objects = _archive.objects


RESULT = ["ORKResult", "NSObject"]
QUESTION = ["ORKQuestionResult"] + RESULT

# 2017-03-10T00:48:45Z (16:48:45 on 9 March at UTC-8)
T0 = since2001(2017, 3, 10, 0, 48, 45)


def question(name, identifier, qtype, **answers):
    entry = {"$class": cls(name, QUESTION), "identifier": string(identifier), "questionType": qtype,
             "startDate": nsdate(T0), "endDate": nsdate(T0 + 1)}
    entry.update(answers)
    return add(entry)


email = question("ORKTextQuestionResult", "ORKRegistrationFormItemEmail", 7, textAnswer=string("ada@example.org"))
password = question("ORKTextQuestionResult", "ORKRegistrationFormItemPassword", 7,
                    textAnswer=string("Hunter2-Registration-Secret"))
gender = question("ORKChoiceQuestionResult", "ORKRegistrationFormItemGender", 2,
                  choiceAnswers=array([string("female")]))
tz = add({"$class": cls("NSTimeZone", ["NSObject"]), "NS.name": string("America/Los_Angeles")})
cal = add({"$class": cls("NSCalendar", ["NSObject"]), "NS.identifier": string("gregorian")})
# 1987-03-10T00:48:33Z (16:48:33 on 9 March at UTC-8)
dob = question("ORKDateQuestionResult", "ORKRegistrationFormItemDOB", 10, dateAnswer=nsdate(since2001(1987, 3, 10, 0, 48, 33)),
               timeZone=tz, calendar=cal)
pain = question("ORKScaleQuestionResult", "pain", 1, scaleAnswer=7)
fell = question("ORKBooleanQuestionResult", "fell", 6, booleanAnswer=False)
components = add({"$class": cls("NSDateComponents", ["NSObject"]), "NS.hour": 7, "NS.minute": 45})
dose = question("ORKTimeOfDayQuestionResult", "lastDose", 8, dateComponentsAnswer=components)
weight = question("ORKNumericQuestionResult", "weight", 4, numericAnswer=71.25, unit=string("kg"))

step = add({"$class": cls("ORKStepResult", ["ORKCollectionResult"] + RESULT), "identifier": string("registrationStep"),
            "startDate": nsdate(T0 - 12), "endDate": nsdate(T0 + 6),
            "results": array([email, password, gender, dob, pain, fell, dose, weight])})
signature = add({"$class": cls("ORKConsentSignature", ["NSObject"]), "identifier": string("participant"),
                 "givenName": string("Ada"), "familyName": string("Muster"), "signatureDate": string("3/9/17")})
consent = add({"$class": cls("ORKConsentSignatureResult", RESULT), "identifier": string("participant"),
               "consented": True, "signature": signature, "startDate": nsdate(T0 + 23), "endDate": nsdate(T0 + 33)})
review = add({"$class": cls("ORKStepResult", ["ORKCollectionResult"] + RESULT), "identifier": string("ConsentReviewStep"),
              "results": array([consent])})
run = add({"$class": cls("NSUUID", ["NSObject"]),
           "NS.uuidbytes": uuid.UUID("2C7D5C1E-3F1B-4B52-9B8E-0D1C2A3B4C5D").bytes})
outdir = add({"$class": cls("NSURL", ["NSObject"]), "NS.base": "$null", "NS.relative": string("file:///tmp/out/")})
task = add({"$class": cls("ORKTaskResult", ["ORKCollectionResult"] + RESULT), "identifier": string("registrationTask"),
            "taskRunUUID": run, "outputDirectory": outdir, "startDate": nsdate(T0 - 12), "endDate": nsdate(T0 + 33),
            "results": array([step, review])})

archive = {"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": task}, "$objects": objects}
with open(sys.argv[1], "wb") as f:
    f.write(plistlib.dumps(archive, fmt=plistlib.FMT_BINARY))
