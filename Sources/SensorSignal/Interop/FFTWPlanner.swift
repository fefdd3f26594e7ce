internal import CFFTW
import Synchronization

/// How hard FFTW searches for a fast plan for a transform length.
///
/// Plans are made once per (length, precision, direction, effort) for the whole process and reused,
/// so the cost is paid at most once per length.
public enum FFTPlanningEffort: Sendable, Hashable {
    /// `FFTW_ESTIMATE`: a heuristic plan, made in microseconds. The default.
    case estimate
    /// `FFTW_MEASURE`: times candidate algorithms (tens to hundreds of milliseconds per length)
    /// for a plan that can be faster to execute. Worth it only for lengths used millions of times.
    case measure

    var flags: UInt32 {
        switch self {
        case .estimate: UInt32(FFTW_ESTIMATE)
        case .measure: UInt32(FFTW_MEASURE)
        }
    }
}

/// Errors raised while preparing a Fourier transform.
public enum FFTError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The requested length is not one FFTW can plan (must be 1…Int32.max).
    case invalidLength(Int)
    /// FFTW could not allocate the aligned buffers for this length.
    case allocationFailed(length: Int)
    /// FFTW returned no plan for this length (out of memory, or an FFTW limitation).
    case planCreationFailed(length: Int)
    /// The scalar type (named) is not one FFTW transforms: only `Float` and `Double` are.
    case unsupportedScalar(String)

    public var description: String {
        switch self {
        case .invalidLength(let n): "invalid FFT length \(n): must be at least 1"
        case .allocationFailed(let n): "could not allocate FFT buffers for length \(n)"
        case .planCreationFailed(let n): "FFTW could not create a plan for length \(n)"
        case .unsupportedScalar(let name): "FFTW cannot transform \(name): only Float and Double"
        }
    }
}

/// A raw FFTW plan pointer that may be shared between threads.
///
/// FFTW guarantees that *executing* a plan through the new-array execute functions
/// (`fftw_execute_dft_r2c` and friends) is thread-safe; only planning and destruction are not,
/// and those happen exclusively inside ``FFTWPlanner`` under its lock.
struct SharedPlan: @unchecked Sendable {
    let raw: OpaquePointer
}

enum TransformDirection: Hashable, Sendable {
    case realToComplex, complexToReal
}

struct PlanKey: Hashable, Sendable {
    let length: Int
    let isSinglePrecision: Bool
    let direction: TransformDirection
    let effort: FFTPlanningEffort
}

/// The process-wide FFTW plan cache. FFTW's planner is not thread-safe, so every planner call
/// (creation, destruction, wisdom) goes through this lock. Plans live until
/// ``RealFFT/releaseCachedPlans()``.
enum FFTWPlanner {
    private static let state = Mutex<[PlanKey: SharedPlan]>([:])
    private static let liveInstances = Mutex<Int>(0)

    static func instanceCreated() { liveInstances.withLock { $0 += 1 } }
    static func instanceDestroyed() { liveInstances.withLock { $0 -= 1 } }

    /// Returns the cached plan for `key`, creating it with `make` under the planner lock if needed.
    /// `make` receives freshly `fftw_malloc`ed scratch arrays so the plan has FFTW's SIMD alignment,
    /// which every ``RealFFT`` buffer (also `fftw_malloc`ed) shares.
    static func plan(for key: PlanKey, make: () -> OpaquePointer?) throws(FFTError) -> SharedPlan {
        let found: SharedPlan? = state.withLock { cache -> SharedPlan? in
            if let plan = cache[key] { return plan }
            guard let raw = make() else { return nil }
            let plan = SharedPlan(raw: raw)
            cache[key] = plan
            return plan
        }
        guard let found else { throw .planCreationFailed(length: key.length) }
        return found
    }

    /// Destroys every cached plan unless a ``RealFFT`` instance (which holds plan pointers) is alive.
    static func releaseAll() -> Bool {
        // Hold the instance lock so no instance can be created while the plans go away.
        liveInstances.withLock { live in
            guard live == 0 else { return false }
            releasePlans()
            return true
        }
    }

    private static func releasePlans() {
        state.withLock { cache in
            for (key, plan) in cache {
                if key.isSinglePrecision { fftwf_destroy_plan(plan.raw) } else { fftw_destroy_plan(plan.raw) }
            }
            cache.removeAll()
        }
    }

    /// Number of plans currently cached (for tests and diagnostics).
    static var cachedPlanCount: Int { state.withLock { $0.count } }
}

/// The FFTW library version string, e.g. `fftw-3.3.10-sse2-avx`.
public var fftwVersion: String { String(cString: cfftw_version()) }
