// swift-tools-version: 6.0
import PackageDescription

// libFuzzer targets for Cadence's decoders, parser, pacer and key decoder: one executable per
// target, each exporting `LLVMFuzzerTestOneInput` and checking one oracle from `CadenceOracles`
// (the root package's module that the regression tests use too). A package of its own, so the root
// package and CI never build it. Build and run one with `Fuzz/run.sh TARGET SECONDS`; see README.md.
let targets = [
    "FuzzSSE",
    "FuzzNDJSON",
    "FuzzOpenAIChat",
    "FuzzOpenAIResponses",
    "FuzzAnthropic",
    "FuzzGemini",
    "FuzzOllama",
    "FuzzResearchEvents",
    "FuzzResearchReplies",
    "FuzzMarkdown",
    "FuzzMarkdownWork",
    "FuzzPacer",
    "FuzzKeys",
]

let package = Package(
    name: "CadenceFuzz",
    dependencies: [.package(name: "Cadence", path: "..")],
    targets: targets.map { name in
        .executableTarget(
            name: name,
            dependencies: [.product(name: "CadenceOracles", package: "Cadence")],
            path: "Targets/\(name)"
        )
    }
)
