#!/usr/bin/env python3
"""Writes the sensor-export fixtures: one synthetic 14 s walk (50 Hz, 1.8 steps/s, gravity on -y) in the layouts
labs download it in, each written from the format's documentation, plus `plain.csv` (t in s; x, y, z in g) holding
the same samples — the "converted copy" every layout must analyse like.

Run from anywhere: python3 make_fixtures.py (deterministic; only the standard library).
"""
import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
G = 9.80665
RATE = 50.0
N = 700
rng = random.Random(52)
samples = []
for i in range(N):
    t = i / RATE
    s = 0.3 * math.sin(2 * math.pi * 1.8 * t)
    samples.append((t, round(0.03 * rng.gauss(0, 1), 4), round(-1 + s + 0.02 * rng.gauss(0, 1), 4),
                    round(0.1 * s + 0.02 * rng.gauss(0, 1), 4)))
EPOCH_MS = 1764669600000.0  # 2025-12-02T10:00:00Z


def write(name, text):
    path = os.path.join(HERE, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="") as f:
        f.write(text)


def ms2(v):
    return f"{v * G:.5f}"


# The converted copy.
write("plain.csv", "t,x,y,z\n" + "".join(f"{t:.3f},{x},{y},{z}\n" for t, x, y, z in samples))

# Shimmer Consensys export: Excel's sep line, tab-delimited, a CAL/RAW row and a units row under the header,
# Unix milliseconds, m/(s^2), a trailing tab on every line.
names = ["Timestamp_Unix_CAL", "Accel_LN_X_CAL", "Accel_LN_Y_CAL", "Accel_LN_Z_CAL", "Gyro_X_CAL", "Gyro_Y_CAL",
         "Gyro_Z_CAL"]
lines = ['"sep=\t"', "\t".join("Shimmer_5E6A_" + n for n in names) + "\t", "\t".join(["CAL"] * 7) + "\t",
         "\t".join(["ms", "m/(s^2)", "m/(s^2)", "m/(s^2)", "deg/s", "deg/s", "deg/s"]) + "\t"]
for t, x, y, z in samples:
    lines.append("\t".join([f"{EPOCH_MS + t * 1000:.3f}", ms2(x), ms2(y), ms2(z), "0.61", "-1.22", "0.30"]) + "\t")
write("shimmer-consensys.csv", "\r\n".join(lines) + "\r\n")

# An older Shimmer export (as a pedometer study published it): tab-delimited, a units row in msecs, m/(sec^2),
# deg/sec, device-prefixed names of the MPU9150 accelerometer.
names = ["S14_Timestamp_CAL", "S14_Accel_MPU_MPL_X_CAL", "S14_Accel_MPU_MPL_Y_CAL", "S14_Accel_MPU_MPL_Z_CAL",
         "S14_Gyro_MPU_MPL_X_CAL", "S14_Gyro_MPU_MPL_Y_CAL", "S14_Gyro_MPU_MPL_Z_CAL"]
lines = ["\t".join(names), "\t".join(["msecs", "m/(sec^2)", "m/(sec^2)", "m/(sec^2)", "deg/sec", "deg/sec", "deg/sec"])]
for t, x, y, z in samples:
    lines.append("\t".join([f"{31250 + t * 1000:.2f}", ms2(x), ms2(y), ms2(z), "1.5", "0.2", "-0.7"]))
write("shimmer-units-row.tsv", "\n".join(lines) + "\n")

# XSens MT Manager text export: `//` preamble with the sample rate, tab-delimited, a PacketCounter that wraps at
# 65535, SampleTimeFine in 10 kHz ticks, Acc in m/s^2.
lines = ["// General information:", "//  MT Manager version: 2019.2.1", "//  XDA version: 2019.2.1 build 1129",
         "// Device information:", "//  DeviceId: 00B45AB1", "//  ProductCode: MTw2-3A7G6",
         "//  Firmware revision: 4.3.2", "// Device settings:", "//  Filter Profile: human (46.1)",
         "//  Option Flags: none", "// Sample rate: 50", "// Filter settings:", "//  Motion: MTw2",
         "\t".join(["PacketCounter", "SampleTimeFine", "Acc_X", "Acc_Y", "Acc_Z", "Gyr_X", "Gyr_Y", "Gyr_Z"])]
for i, (t, x, y, z) in enumerate(samples):
    lines.append("\t".join([str((65400 + i) % 65536), str(int(123456 + t * 10000)), ms2(x), ms2(y), ms2(z),
                            "0.010", "-0.020", "0.005"]))
write("xsens-mtmanager.txt", "\n".join(lines) + "\n")

# A lower-back XSens gait data set: a one-line preamble stating the frequency, a blank line, a packet counter and
# no time column.
lines = ["Acquisition frequency: 50 Hz", "", "\t".join(["PacketCounter", "Acc_X", "Acc_Y", "Acc_Z", "Gyr_X", "Gyr_Y",
                                                         "Gyr_Z"])]
for i, (t, x, y, z) in enumerate(samples):
    lines.append("\t".join([str(1 + i), ms2(x), ms2(y), ms2(z), "0.01", "0.02", "0.03"]))
write("xsens-gait.tsv", "\n".join(lines) + "\n")

# phyphox "Acceleration with g", exported as CSV (comma, decimal point) in a folder with its meta files.
header = ['"Time (s)"', '"Acceleration x (m/s^2)"', '"Acceleration y (m/s^2)"', '"Acceleration z (m/s^2)"',
          '"Absolute acceleration (m/s^2)"']


def sci(v):
    return f"{v:.9E}".replace("E+0", "E").replace("E-0", "E-").replace("E+", "E")


rows = [",".join(header)]
for t, x, y, z in samples:
    a = math.sqrt(x * x + y * y + z * z) * G
    rows.append(",".join(sci(v) for v in (t, x * G, y * G, z * G, a)))
write("phyphox/Raw Data.csv", "\n".join(rows) + "\n")
write("phyphox/meta/device.csv", '"property","value"\n"deviceModel","Pixel 7"\n"deviceBrand","google"\n'
      '"deviceBoard","panther"\n"deviceManufacturer","Google"\n"deviceBaseOS",""\n"deviceCodename","REL"\n'
      '"deviceRelease","14"\n"depVersion","1.1.15"\n')
write("phyphox/meta/time.csv", '"event","experiment time","system time","system time text"\n'
      '"START",0.000000000E0,1.764669600E9,"2025-12-02 11:00:00.000 UTC+01:00"\n'
      f'"PAUSE",{sci(samples[-1][0])},1.764669614E9,"2025-12-02 11:00:14.000 UTC+01:00"\n')

# The same, exported as "CSV (semicolon, decimal comma)".
rows = [";".join(header)]
for t, x, y, z in samples:
    a = math.sqrt(x * x + y * y + z * z) * G
    rows.append(";".join(sci(v).replace(".", ",") for v in (t, x * G, y * G, z * G, a)))
write("phyphox-semicolon.csv", "\n".join(rows) + "\n")

# phyphox "Linear Acceleration" (gravity removed), tab-separated export.
header = ['"Time (s)"', '"Linear Acceleration x (m/s^2)"', '"Linear Acceleration y (m/s^2)"',
          '"Linear Acceleration z (m/s^2)"', '"Absolute acceleration (m/s^2)"']
rows = ["\t".join(header)]
for t, x, y, z in samples:
    lx, ly, lz = x * G, (y + 1) * G, z * G
    rows.append("\t".join(sci(v) for v in (t, lx, ly, lz, math.sqrt(lx * lx + ly * ly + lz * lz))))
write("phyphox-linear.tsv", "\n".join(rows) + "\n")

# SensorLog (iOS): text logging time, a sample counter, seconds since reboot, acceleration in G stated in the names.
names = ["loggingTime(txt)", "loggingSample(N)", "accelerometerTimestamp_sinceReboot(s)",
         "accelerometerAccelerationX(G)", "accelerometerAccelerationY(G)", "accelerometerAccelerationZ(G)"]
rows = [",".join(names)]
for i, (t, x, y, z) in enumerate(samples):
    rows.append(",".join([f"2025-12-02T11:00:{t:06.3f}+01:00", str(i), f"{5123.25 + t:.6f}", str(x), str(y), str(z)]))
write("sensorlog-ios.csv", "\n".join(rows) + "\n")

# Sensor Logger (Android/iOS app), TotalAcceleration.csv: Unix nanoseconds, seconds elapsed, z, y, x in m/s^2.
rows = ["time,seconds_elapsed,z,y,x"]
for t, x, y, z in samples:
    rows.append(f"{int(EPOCH_MS * 1e6 + t * 1e9)},{t:.4f},{ms2(z)},{ms2(y)},{ms2(x)}")
write("sensorlogger-totalacceleration.csv", "\n".join(rows) + "\n")

# Physics Toolbox Sensor Suite: time in seconds and g-force columns.
rows = ["time,gFx,gFy,gFz,TgF"]
for t, x, y, z in samples:
    rows.append(f"{t:.3f},{x},{y},{z},{math.sqrt(x * x + y * y + z * z):.4f}")
write("physicstoolbox.csv", "\n".join(rows) + "\n")

# Movella DOT app export (sensor fusion mode, as its CSV files are described): a few "key:,value" preamble lines,
# then PacketCounter, SampleTimeFine (us), Euler angles and FreeAcc (gravity-free acceleration, m/s^2 by
# definition, no unit in the names), a Status column, and a trailing comma on every line. No rate is stated:
# it is given with --sample-rate. (The DOT records at 1-120 Hz; the shared walk is 50 Hz.)
lines = ["DeviceTag:,1", "FirmwareVersion:,2.6.0", "AppVersion:,2023.6.0", "SyncStatus:,Synced",
         "FilterProfile:,General",
         "PacketCounter,SampleTimeFine,Euler_X,Euler_Y,Euler_Z,FreeAcc_X,FreeAcc_Y,FreeAcc_Z,Status,"]
for i, (t, x, y, z) in enumerate(samples):
    lines.append(",".join([str(1200 + i), str(int(4_112_000_000 + t * 1e6)), "1.25", "-3.50", "87.00",
                           ms2(x), f"{(y + 1) * G:.5f}", ms2(z), "0", ""]))
write("movella-dot.csv", "\n".join(lines) + "\n")

# MATLAB Mobile sensor log, written with writetimetable(Acceleration, "acceleration.csv"): MATLAB's default
# datetime text in the Timestamp column (no UTC offset), X, Y, Z in m/s^2.
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
rows = ["Timestamp,X,Y,Z"]
for t, x, y, z in samples:
    ms = int(round(t * 1000))
    rows.append(f"02-{MONTHS[11]}-2025 11:00:{ms // 1000:02d}.{ms % 1000:03d},{ms2(x)},{ms2(y)},{ms2(z)}")
write("matlab-mobile.csv", "\n".join(rows) + "\n")

# An Android SensorEvent dump, as apps that log onSensorChanged write it: the sensor's string type, the event's
# timestamp (ns since boot), its accuracy and values[0..2] (m/s^2).
rows = ["sensor,timestamp,accuracy,values[0],values[1],values[2]"]
for t, x, y, z in samples:
    rows.append(f"android.sensor.accelerometer,{int(8_123_456_789_000 + t * 1e9)},3,{ms2(x)},{ms2(y)},{ms2(z)}")
write("android-sensorevent.csv", "\n".join(rows) + "\n")
