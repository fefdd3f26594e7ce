import ActiveTasks

@main
struct Entrypoint {
    static func main() { print(activeTasksVersion) }
}
