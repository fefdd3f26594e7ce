import ActiveTasks
import StudyBatch
import StudyInputs
import StudyOutputs

#if canImport(Glibc)
    import Glibc
#endif

/// The `taskproc` executable: all command logic lives in TaskprocCommand and the libraries.
@main
enum Entrypoint {
    static func main() async {
        // A closed pipe is an I/O error like a full disk (`cannot write standard output: Broken pipe`, exit 74),
        // not a death by SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        await TaskprocCommand.execute()
    }
}
