# Writes the .npy files npy_test reads, with real numpy (refgen/torch_env/run.sh trixie
# apps/diagnostics/testdata/make_npy.py). Values are simple so the test can state them.
import os
import numpy as np

d = os.path.dirname(os.path.abspath(__file__))
np.save(os.path.join(d, "f32_2x3.npy"), np.arange(6, dtype="<f4").reshape(2, 3) - 2.5)
np.save(os.path.join(d, "i64_4.npy"), np.array([7, -1, 0, 1 << 40], dtype="<i8"))
np.save(os.path.join(d, "f64_scalar.npy"), np.array(3.25, dtype="<f8"))
np.save(os.path.join(d, "bool_3.npy"), np.array([True, False, True]))
np.save(os.path.join(d, "f32_fortran.npy"), np.asfortranarray(np.arange(6, dtype="<f4").reshape(2, 3)))
np.save(os.path.join(d, "f32_big_endian.npy"), np.arange(4, dtype=">f4"))
with open(os.path.join(d, "f32_v2.npy"), "wb") as f:
    np.lib.format.write_array(f, np.arange(3, dtype="<f4"), version=(2, 0))
print(np.__version__)
