"""A venv under .build/ with one pinned PyPI package, set up on first use: shared by the reference validators
(fhir_validate.py, k8s_validate.py, duckdb_types.py)."""
import os
import subprocess
import sys


def ensure_venv(package, name, env_var):
    """The venv's folder, with `package` installed; exits with status 2 when it cannot be set up.

    `name` is its folder under .build/, `env_var` an environment variable that overrides the location."""
    venv = os.environ.get(env_var) or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", ".build", name)
    marker = os.path.join(venv, ".installed-" + package)
    if not os.path.exists(marker):
        try:
            subprocess.run([sys.executable, "-m", "venv", venv], check=True)
            subprocess.run([os.path.join(venv, "bin", "python"), "-m", "pip", "install", "-q", package], check=True)
        except (subprocess.CalledProcessError, OSError) as error:
            print(f"cannot set up {package} in {venv}: {error}", file=sys.stderr)
            sys.exit(2)
        open(marker, "w").close()
    return venv
