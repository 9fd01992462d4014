import path from "node:path";
import ts from "typescript";

/** Typechecks files as the repository's strict settings would (NodeNext, `source` condition); returns the errors. */
export function typecheckFiles(files: string[]): string[] {
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    noUncheckedIndexedAccess: true,
    verbatimModuleSyntax: true,
    isolatedModules: true,
    customConditions: ["source"],
    types: ["node"],
    lib: ["lib.es2023.d.ts"],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .filter(
      (diagnostic) => diagnostic.file === undefined || files.includes(path.resolve(diagnostic.file.fileName)),
    )
    .map(
      (diagnostic) =>
        `${diagnostic.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`,
    );
}
