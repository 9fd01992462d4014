// The rules of the `prompt_injection` check (RULES.md): phrases that address the model reading a tool
// result rather than a person. Each has a weight; a sentence is an injection when its weights, plus half
// of those of its neighbours, reach 1 (prompt-injection-matcher.ts). Strong phrases (1) stand alone; weak
// ones need company, because people write them to people too ("act as a guarantor", "IMPORTANT:", "send
// your CV to jobs@…"). Every pattern is linear: bounded repetitions of words that end where a space starts.
import { TALK_RULES } from "./injection-rules-talk.js";
import {
  EARLIER,
  IGNORE_GATE,
  IGNORE_VERBS,
  MODEL,
  ORDERS,
  SENSITIVE,
  hasQueryPlaceholder,
  rule,
  type InjectionRule,
} from "./injection-vocabulary.js";

export type { InjectionRule } from "./injection-vocabulary.js";

export const INJECTION_RULES: readonly InjectionRule[] = [
  // Overriding what the model was told.
  rule(
    "ignore_previous",
    1,
    String.raw`\b(?:ignore|disregard|forget|override|bypass|skip|discard|abandon|drop|cancel)\s+(?:(?:all|any|every|of|the|your|my|these|those)\s+){0,3}${EARLIER}\s+(?:(?:system|safety|developer|user|security|content|given|ai|assistant|model)'?s?\s+){0,2}${ORDERS}\b`,
    IGNORE_VERBS,
    { gate: IGNORE_GATE },
  ),
  rule(
    "ignore_your_orders",
    1,
    String.raw`\b(?:ignore|disregard|forget|override|bypass|discard|drop|abandon|skip|cancel)\s+(?:all\s+(?:of\s+)?)?(?:your|the\s+system'?s?|the\s+developer'?s?|its)\s+(?:(?:own|current|existing|original|earlier|usual|default)\s+)?${ORDERS}\b`,
    IGNORE_VERBS,
    { gate: IGNORE_GATE },
  ),
  rule(
    "forget_everything",
    1,
    String.raw`\b(?:forget|disregard|ignore)\s+(?:everything|all(?:\s+that)?|anything|what)\s+(?:(?:you\s+(?:were|have\s+been|was)\s+)?(?:told|said|instructed|given|written|stated|mentioned|asked)|above|before|previously|earlier|so\s+far|up\s+to\s+(?:now|this\s+point))\b`,
    IGNORE_VERBS,
    { gate: IGNORE_GATE },
  ),
  rule(
    "ignore_the_orders",
    0.6,
    String.raw`\b(?:ignore|disregard|forget|override|bypass|discard|abandon)\s+(?:the|these|those|any|its)\s+${ORDERS}\b`,
    IGNORE_VERBS,
    { gate: IGNORE_GATE },
  ),
  rule(
    "orders_void",
    0.6,
    String.raw`\b(?:above|previous|prior|preceding|earlier|original|old)\s+(?:[A-Za-z]+\s+)?(?:is|are|was|were)\s+(?:now\s+|only\s+)?(?:outdated|obsolete|void|invalid|wrong|cancell?ed|revoked|superseded|fake|(?:no\s+longer\s+(?:valid|relevant|applicable|in\s+effect))|(?:only\s+)?for\s+testing|a\s+test)\b`,
    ["above", "previous", "prior", "preceding", "earlier", "original", "old"],
  ),
  rule(
    "ignore_above",
    0.7,
    String.raw`\b(?:ignore|disregard|forget)\s+(?:all\s+(?:of\s+)?)?(?:the\s+|everything\s+)?(?:above|foregoing)\b`,
    IGNORE_VERBS,
    { gate: IGNORE_GATE },
  ),
  rule(
    "ignore_other_languages",
    1,
    String.raw`\bignore[rz]?\s+(?:toutes\s+)?(?:les\s+)?instructions\s+(?:pr[ée]c[ée]dentes|ant[ée]rieures)|\bignorier(?:e|en)?\s+(?:alle\s+)?(?:vorherigen|bisherigen|obigen|vorigen)\s+(?:Anweisungen|Instruktionen|Befehle)|\bignora(?:r)?\s+(?:todas\s+)?las\s+instrucciones\s+(?:anteriores|previas)`,
    ["ignor*"],
  ),
  rule(
    "do_not_follow",
    0.8,
    String.raw`\b(?:do\s+not|don'?t|never|no\s+longer)\s+(?:follow|obey|listen\s+to|comply\s+with|adhere\s+to|respect)\s+(?:the\s+|your\s+|any\s+)?(?:(?:user'?s?|human'?s?)\b|(?:previous|prior|original|system|developer|safety|earlier|above|initial)\s+(?:(?:system|safety|developer)\s+)?${ORDERS})`,
    ["do", "don't", "dont", "never", "no"],
  ),
  // Chat-template and role markers that only a model reads.
  rule(
    "role_tag",
    1,
    String.raw`<\|(?:im_start|im_end|system|endoftext|start_header_id|end_header_id|eot_id)\|>|\[\/?INST\]|<<\/?SYS>>|<\/?system[_-]?prompt>`,
    ["<|", "[inst", "[/inst", "<<sys", "<</sys", "<system*", "</system*"],
  ),
  rule(
    "role_marker",
    0.8,
    String.raw`(?:<{2,8}|>{2,8}|\[{1,2}|\{{2}|={2,8}|\*{2,8}|-{2,8})[ \t]*(?:system|sys|admin|developer|assistant|instructions?)[ \t]*(?:>{2,8}|<{2,8}|\]{1,2}|\}{2}|={2,8}|\*{2,8}|-{2,8})`,
    ["<<", ">>", "[", "{{", "==", "**", "--"],
  ),
  rule(
    "model_tag",
    1,
    String.raw`(?:[\[<]|\{\{)\/?[ \t]*(?:ai|llm|assistant|agent|model|bot|system)[-_ ]?(?:instructions?|prompt|commands?|directives?|notes?|only)[ \t]*(?:[\]>:]|\}\})`,
    ["[", "<", "{{"],
  ),
  rule(
    "instruction_header",
    0.6,
    String.raw`#{2,8}[ \t]*(?:(?:new\s+)?instructions?|system(?:\s+(?:prompt|message|override))?|assistant|response)[ \t]*(?::|#{2,8})|(?<=^[ \t]*)#{2,8}[ \t]*(?:new\s+)?(?:instructions?|system\s+(?:prompt|message|override))[ \t]*$`,
    ["##"],
    { flags: "gim" },
  ),
  rule(
    "role_line",
    0.8,
    String.raw`(?<=(?:^|["'(\[,>])[ \t]*)\[?(?:system|assistant|developer|admin)\]?(?:\s+(?:message|prompt|note|override))?[ \t]*:[ \t]*(?=you\b|ignore|from\s+now|new\s+instructions|the\s+user|do\s+not|always|never|forget|disregard)`,
    ["[", "system", "assistant", "developer", "admin"],
    { flags: "gim" },
  ),
  rule(
    "prompt_boundary",
    0.8,
    String.raw`\b(?:end|begin|start)\s+of\s+(?:the\s+)?(?:system\s+prompt|user\s+input|tool\s+output|untrusted\s+(?:content|input))\b|\b(?:BEGIN|END)\s+(?:SYSTEM|ADMIN|DEVELOPER)\s+(?:INSTRUCTIONS?|PROMPT|MESSAGE)\b|\[\s*(?:END|BEGIN|START)\s+OF\s+[A-Z][A-Z ]{1,30}\]`,
    ["end", "begin", "start", "["],
  ),
  // A new role or task for the model.
  rule("you_are_now", 0.6, String.raw`\byou\s+(?:are\s+)?(?:now|no\s+longer|henceforth)\b`, ["you"]),
  rule(
    "from_now_on",
    0.6,
    String.raw`\bfrom\s+now\s+on,?\s+(?:you|your|the\s+assistant|ignore|always|never|respond|reply|answer|only)\b`,
    ["from"],
  ),
  rule(
    "new_task",
    0.7,
    String.raw`\byour\s+(?:new|real|true|actual|only|primary|updated)\s+(?:task|goal|objective|job|role|purpose|instructions?|mission|persona|directive)\s+(?:now\s+)?(?:is|are|will\s+be)\s+(?:now\s+)?(?:to\b|:)|\byour\s+(?:task|goal|objective|job|role)\s+is\s+now\b`,
    ["your"],
  ),
  rule(
    "new_instructions",
    0.7,
    String.raw`\b(?:new|updated|revised|real|actual|true|hidden|secret|additional|override)\s+(?:system\s+)?instructions?\s*(?::|follow\b|for\s+(?:the\s+|any\s+|all\s+)?${MODEL}s?\b)|\b(?:real|actual|true|hidden|secret)\s+instructions?\s+(?:are|is|follow)\b|\bnew\s+(?:system\s+)?(?:prompt|rules|directives?|persona|task|orders|role)\s*:`,
    ["new", "updated", "revised", "real", "actual", "true", "hidden", "secret", "additional", "override"],
  ),
  rule(
    "jailbreak_mode",
    1,
    String.raw`\b(?:enabled?|activated?|enter(?:ed)?|switch(?:ed)?\s+(?:in)?to|turn(?:ed)?\s+on)\s+(?:\w+\s+)?(?:god|dan|jailbreak|jailbroken|unrestricted|unfiltered|uncensored)\s+mode\b|\bdo\s+anything\s+now\b`,
    [
      "enable",
      "enabled",
      "activate",
      "activated",
      "enter",
      "entered",
      "switch",
      "switched",
      "turn",
      "turned",
      "do",
    ],
  ),
  rule("jailbreak_word", 0.5, String.raw`\b(?:jailbreak|jailbroken|developer\s+mode|dan\s+mode)\b`, [
    "jailbreak",
    "jailbroken",
    "developer",
    "dan",
  ]),
  rule("pretend", 0.5, String.raw`\b(?:pretend\s+(?:to\s+be|you\s+are|that\s+you)|role-?play\s+as)\b`, [
    "pretend",
    "roleplay",
    "role",
  ]),
  rule(
    "act_as",
    0.3,
    String.raw`\b(?:act|behave|operate)\s+as\s+(?:if\s+you\s+(?:are|were)\s+)?(?:an?\s+|my\s+)?`,
    ["act", "behave", "operate"],
  ),
  // Keeping the person out of it.
  rule(
    "hide_from_user",
    1,
    String.raw`\b(?:do\s+not|don'?t|never|without)\s+(?:tell(?:ing)?|inform(?:ing)?|mention(?:ing)?|reveal(?:ing)?|notify(?:ing)?|alert(?:ing)?|let(?:ting)?|show(?:ing)?|disclos(?:e|ing)|warn(?:ing)?|ask(?:ing)?)\s+(?:(?:this|it|anything|about\s+(?:this|it))\s+(?:to\s+)?)?(?:the\s+)?(?:user|human|maintainers)\b|\bkeep\s+(?:this|it)\s+(?:secret|hidden|confidential)\s+from\s+the\s+(?:user|human)\b`,
    ["do", "don't", "dont", "never", "without", "keep"],
  ),
  rule(
    "hide_the_note",
    0.8,
    String.raw`\b(?:never|do\s+not|don'?t)\s+(?:mention|reveal|disclose|acknowledge|say|admit)\s+(?:that\s+)?(?:this|these)\s+(?:note|instructions?|message|text|comment|request)s?\b`,
    ["never", "do", "don't", "dont"],
  ),
  rule(
    "user_authorized",
    0.8,
    String.raw`(?<=\bthe\s+)(?:user|owner|organi[sz]er|admin|customer)\s+(?:(?:has|have|actually|really|already|also|explicitly|pre-?)\s*){0,3}(?:wants|asked|requested|authori[sz]ed|approved|consented|permitted|allowed|instructed)\s+(?:you|the\s+assistant|the\s+ai|the\s+agent|(?:sharing|sending|forwarding|publishing|this))\b`,
    ["user", "owner", "organiser", "organizer", "admin", "customer"],
  ),
  rule(
    "skip_human",
    0.6,
    String.raw`\b(?:skip|bypass|without|avoid)\s+(?:any\s+|the\s+)?(?:human|manual)\s+(?:review|approval|oversight|confirmation|check)|\bwithout\s+(?:checking|asking|confirming|consulting)\s+(?:back\s+)?(?:with\s+)?(?:the\s+user|them|anyone|a\s+human)\b|\bhumans?\s+(?:have\s+|has\s+)?already\s+(?:pre-?)?approved\b|\bwithout\s+(?:any\s+)?(?:safety|security|content)\s+(?:checks?|filters?|restrictions?|guidelines|review)`,
    ["skip", "bypass", "without", "avoid", "human", "humans"],
  ),
  rule(
    "hidden_text",
    0.4,
    String.raw`<[a-z][^>\n]{0,120}?(?:\bhidden\b|display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*[01](?:px|pt)?\b|color\s*:\s*(?:white|#fff(?:fff)?)\b)|\b(?:invisible|hidden|white)\s+text\b|\bfont\s+size\s+[01]\b|\b[01]\s?(?:pt|px)\s+font\b|\(?do\s+not\s+(?:display|show|render)(?:\s+(?:this|to\s+the\s+user))?\)?`,
    ["<", "invisible", "hidden", "white", "font", "0*", "1*", "(", "do"],
  ),
  rule(
    "grant_trust",
    0.5,
    String.raw`\b(?:mark|treat|flag|add|set|label|classify)\s+(?:this|the|these|all|every|it)\s+(?:\w+\s+){0,3}?(?:as\s+)?(?:trusted|safe|verified|legitimate|whitelisted|allowed|approved|compliant)\b|\bwhitelist\b|\ballow-?list\s+the\b`,
    ["mark", "treat", "flag", "add", "set", "label", "classify", "whitelist", "allow", "allowlist"],
  ),
  // Asking for what the model was told.
  rule(
    "reveal_prompt",
    1,
    String.raw`\b(?:reveal|print|output|repeat|show|leak|dump|display|share|disclose|tell\s+me|recite|write\s+out|return)\s+(?:me\s+)?(?:\w+\s+){0,3}?(?:system\s+prompt|initial\s+(?:prompt|instructions)|hidden\s+(?:prompt|instructions)|developer\s+(?:message|prompt|instructions)|(?:instructions|prompt)\s+(?:above|you\s+were\s+given)|confidential\s+instructions)\b`,
    [
      "reveal",
      "print",
      "output",
      "repeat",
      "show",
      "leak",
      "dump",
      "display",
      "share",
      "disclose",
      "tell",
      "recite",
      "write",
      "return",
    ],
  ),
  rule(
    "dump_everything",
    0.8,
    String.raw`\b(?:output|print|list|dump|reveal|show|leak|share|send|post|paste)\s+(?:out\s+)?(?:all|every|any|each)\s+(?:\w+\s+){0,2}?(?:secrets?|keys?|tokens?|passwords?|credentials|instructions|files|documents|messages|emails)\b`,
    ["output", "print", "list", "dump", "reveal", "show", "leak", "share", "send", "post", "paste"],
  ),
  rule(
    "tell_the_user",
    0.5,
    String.raw`\b(?:tell|inform|convince|persuade|warn|ask)\s+the\s+user\b|\btell\s+(?:your|the)\s+${MODEL}\s+to\b`,
    ["tell", "inform", "convince", "persuade", "warn", "ask"],
  ),
  rule("system_prompt", 0.4, String.raw`\bsystem\s+prompt\b`, ["system"]),
  // Sending data somewhere, or calling tools.
  rule(
    "exfiltrate",
    0.7,
    String.raw`\b(?:send|sending|forward|forwarding|e-?mail|post|upload|transmit|exfiltrate|leak|copy|submit|deliver|report|share|sharing)\s+(?:\S+\s+){0,8}?(?:to|at|into|with)\s+(?:https?:\/\/|www\.|[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+\.)`,
    [
      "send",
      "sending",
      "forward",
      "forwarding",
      "e-mail",
      "email",
      "post",
      "upload",
      "transmit",
      "exfiltrate",
      "leak",
      "copy",
      "submit",
      "deliver",
      "report",
      "share",
      "sharing",
    ],
  ),
  rule("sensitive_data", 0.5, String.raw`\b${SENSITIVE}\b`, ["conversation", "chat", "previous", "prior", "earlier", "all", "user", "users", "api*", "access*", "secret*", "private*", "credentials", "environment", "session"]), // prettier-ignore
  rule("url_placeholder", 1, String.raw`!\[[^\]\n]{0,200}\]\(\s*https?:\/\/[^\s)]{1,500}\)`, ["!["], {
    accept: (match) => hasQueryPlaceholder(match[0]),
  }),
  rule(
    "into_url",
    0.6,
    String.raw`\b(?:append|include|add|insert|encode|put|embed)\s+(?:\S+\s+){0,6}?(?:in|into|to|as)\s+(?:the\s+|this\s+|a\s+)?(?:url|link|query\s+(?:string|parameter)|image\s+(?:url|link|source))\b`,
    ["append", "include", "add", "insert", "encode", "put", "embed"],
  ),
  rule(
    "call_tool",
    0.6,
    String.raw`\b(?:call|invoke|use|run|execute|trigger)\s+(?:the\s+)?[\x60'"]?[A-Za-z_][\w.-]{0,63}[\x60'"]?\s+(?:tool|function|action|plugin)\s+(?:with|to|and|using|passing|for)\b|\b(?:call|invoke|execute)\s+(?:the\s+)?(?:tool|function)\s+[\x60'"]?[A-Za-z_][\w.-]{0,63}|\b(?:using|with|via)\s+(?:the\s+|your\s+)?[\x60'"]?[A-Za-z_][\w.-]{0,63}[\x60'"]?\s+tool\b`,
    ["call", "invoke", "use", "using", "run", "execute", "trigger", "with", "via"],
  ),
  rule(
    "run_command",
    0.3,
    String.raw`\b(?:execute|run)\s+(?:the\s+following|this)\s+(?:command|code|script|shell|sql|query)\b`,
    ["execute", "run"],
  ),
  ...TALK_RULES,
];
