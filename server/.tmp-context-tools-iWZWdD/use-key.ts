import { z } from "zod";
   export const useKey = { name: "use_key", desc: "Calls an API with the caller's key", args: z.object({}),
     out: z.object({ hasKey: z.boolean() }),
     run: (_args: unknown, context: { toolContext: Record<string, unknown> }) =>
       ({ hasKey: context.toolContext.apiKey === "sk-caller-key-0042" }) };