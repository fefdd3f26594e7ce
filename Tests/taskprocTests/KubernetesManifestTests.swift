import Foundation
import TestSupport
import Testing

/// Issue 20, item 5: the Kubernetes Indexed Job of docs/batch.md is a valid batch/v1 Job. kubectl is not packaged
/// by Debian 12, so `Tools/validators/k8s_validate.py` checks it against the Kubernetes 1.30 Job schema in strict
/// mode (`kubernetes-validate`, PyPI), that its completions match its `--shard K/N`, and that a manifest with an
/// unknown field is refused (the check can fail). The Slurm job of the same article runs for real in
/// `make cluster-test`.
@Suite struct KubernetesManifestTests {
    @Test func theDocumentedJobManifestIsValid() throws {
        let r = try runPythonScript("Tools/validators/k8s_validate.py", [repositoryPath("docs/batch.md")])
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.contains("valid against Kubernetes 1.30.0 (strict)"), "\(r.output)")
    }
}
