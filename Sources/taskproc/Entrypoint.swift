/// The `taskproc` executable: all command logic lives in TaskprocCommand and the libraries.
@main
enum Entrypoint {
    static func main() async { await TaskprocCommand.execute() }
}
