/// The hand-made survey fixtures in `Tests/Fixtures/survey/`, which the survey, export, report and batch tests share.
public enum SurveyFixtures {
    /// Absolute path of `Tests/Fixtures/survey/<name>`.
    public static func path(_ name: String) -> String { fixturePath("survey/" + name) }

    /// The secret of the fixture and of the registration task: no output may hold them.
    public static let secrets = ["Zx9-passcode-Secret", "Hunter2-Registration-Secret"]
}
