#!/usr/bin/env python3
"""mobgap 1.2.0's GsdIonescu on the Mobilise-D development trials: the reference output GaitSequenceDetectorTests pins.

Prints, per trial, the gait sequences (s) of `mobgap.gait_sequences.GsdIonescu()` with its default (published)
parameters, and the maximum, minimum and 95th percentile of |x| of its `filtered_signal_` (the enhanced acceleration
norm on the 40 Hz grid, m/s²). Run with the venv Benchmarks/compare/walking.py makes:

    Tools/peers/.venv-walking-mobgap/bin/python Benchmarks/compare/gsd_mobgap.py ../shared/data/mobilise-d-lab
"""
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

warnings.filterwarnings("ignore")
from mobgap.gait_sequences import GsdIonescu  # noqa: E402


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/data/mobilise-d-lab")
    for path in sorted(folder.glob("*.imu.csv.gz")):
        data = pd.read_csv(path)[["acc_x", "acc_y", "acc_z", "gyr_x", "gyr_y", "gyr_z"]]
        gsd = GsdIonescu().detect(data, sampling_rate_hz=100)
        s = gsd.filtered_signal_
        sequences = [(round(r.start / 100, 2), round(r.end / 100, 2)) for r in gsd.gs_list_.itertuples()]
        print(path.name, sequences, "max %.3f min %.3f p95|x| %.3f" % (np.max(s), np.min(s), np.percentile(np.abs(s), 95)))


if __name__ == "__main__":
    main()
