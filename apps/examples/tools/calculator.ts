import { defineTool } from "@waddle/planner";
import { z } from "zod";

const FUNCTIONS: Readonly<Record<string, (...values: number[]) => number>> = {
  abs: Math.abs,
  ceil: Math.ceil,
  cos: Math.cos,
  exp: Math.exp,
  floor: Math.floor,
  ln: Math.log,
  log: Math.log10,
  max: Math.max,
  min: Math.min,
  round: Math.round,
  sin: Math.sin,
  sqrt: Math.sqrt,
  tan: Math.tan,
};
const CONSTANTS: Readonly<Record<string, number>> = { pi: Math.PI, e: Math.E };

/** Thrown for an expression the calculator cannot read; the message points at the problem. */
export class ExpressionError extends Error {
  readonly code = "invalid_expression" as const;
}

/**
 * Evaluates an arithmetic expression without `eval`: numbers, + - * / % ^ (right-associative), unary
 * minus, parentheses, the functions above and the constants `pi` and `e`.
 */
export function evaluateExpression(expression: string): number {
  const tokens =
    expression.match(/\d+(?:\.\d+)?(?:e[+-]?\d+)?|\.\d+|[A-Za-z_]\w*|\*\*|[-+*/%^(),]|\S/gi) ?? [];
  let position = 0;
  const peek = (): string | undefined => tokens[position];
  const take = (expected?: string): string => {
    const token = tokens[position];
    if (token === undefined || (expected !== undefined && token !== expected)) {
      throw new ExpressionError(
        `Expected ${expected ? `"${expected}"` : "more input"} at token ${position + 1} of "${expression}".`,
      );
    }
    position += 1;
    return token;
  };
  const parseSum = (): number => {
    let value = parseProduct();
    while (peek() === "+" || peek() === "-")
      value = take() === "+" ? value + parseProduct() : value - parseProduct();
    return value;
  };
  const parseProduct = (): number => {
    let value = parseUnary();
    while (peek() === "*" || peek() === "/" || peek() === "%") {
      const operator = take();
      const right = parseUnary();
      value = operator === "*" ? value * right : operator === "/" ? value / right : value % right;
    }
    return value;
  };
  const parseUnary = (): number => {
    const sign = peek();
    if (sign === "-" || sign === "+") {
      take();
      return sign === "-" ? -parseUnary() : parseUnary();
    }
    return parsePower();
  };
  const parsePower = (): number => {
    const base = parseAtom();
    if (peek() === "^" || peek() === "**") {
      take();
      return base ** parseUnary();
    }
    return base;
  };
  const parseAtom = (): number => {
    const token = take();
    if (token === "(") {
      const value = parseSum();
      take(")");
      return value;
    }
    if (/^(\d|\.\d)/.test(token)) return Number(token);
    const name = token.toLowerCase();
    if (name in CONSTANTS) return CONSTANTS[name]!;
    const fn = FUNCTIONS[name];
    if (!fn) throw new ExpressionError(`Unknown name "${token}" in "${expression}".`);
    take("(");
    const values = [parseSum()];
    while (peek() === ",") {
      take();
      values.push(parseSum());
    }
    take(")");
    return fn(...values);
  };
  const value = parseSum();
  if (position < tokens.length) {
    throw new ExpressionError(
      `Unexpected "${tokens[position]}" at token ${position + 1} of "${expression}".`,
    );
  }
  if (!Number.isFinite(value)) throw new ExpressionError(`"${expression}" has no finite value.`);
  return value;
}

/** Evaluates arithmetic exactly, so that the model never does sums in its head. */
export const calculator = defineTool({
  name: "calculator",
  desc: "Evaluate an arithmetic expression: + - * / % ^, parentheses, sqrt, abs, round, floor, ceil, min, max, log, ln, exp, sin, cos, tan, pi, e.",
  args: z.object({
    expression: z.string().min(1).max(1_000).describe("e.g. (1200 * 0.15) + sqrt(16)"),
  }),
  out: z.object({ expression: z.string(), value: z.number() }),
  sideEffects: "pure",
  tags: ["math"],
  latencyHintMs: 1,
  run: ({ expression }) => ({ expression, value: evaluateExpression(expression) }),
});
