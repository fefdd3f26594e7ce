"""Building blocks for NSKeyedArchiver archives (binary property lists with $objects and $class references),
shared by make_keyed_archive.py and make_amsler_keyed_archive.py. Only Python's standard library."""
import datetime
import plistlib

EPOCH_2001 = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)


def since2001(year, month, day, hour, minute, second):
    """Seconds from 2001-01-01T00:00:00Z to the given UTC time (NSDate's NS.time)."""
    return (datetime.datetime(year, month, day, hour, minute, second, tzinfo=datetime.timezone.utc)
            - EPOCH_2001).total_seconds()


class KeyedArchive:
    """The $objects table of one archive: add objects, get their UIDs."""

    def __init__(self):
        self.objects = ["$null"]
        self.classes = {}

    def add(self, obj):
        self.objects.append(obj)
        return plistlib.UID(len(self.objects) - 1)

    def cls(self, name, chain):
        if name not in self.classes:
            self.classes[name] = self.add({"$classname": name, "$classes": [name] + chain})
        return self.classes[name]

    def nsdate(self, seconds_since_2001):
        return self.add({"$class": self.cls("NSDate", ["NSObject"]), "NS.time": float(seconds_since_2001)})

    def array(self, items):
        return self.add({"$class": self.cls("NSArray", ["NSObject"]), "NS.objects": list(items)})

    def string(self, s):
        return self.add(s)

    def archive(self, root):
        """The archive dictionary with `root` as its top object."""
        return {"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": root}, "$objects": self.objects}
