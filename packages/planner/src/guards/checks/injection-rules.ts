// The rules of the `prompt_injection` check (RULES.md): phrases that address the model reading a tool
// result rather than a person. Each has a weight; a sentence is an injection when its weights, plus half
// of those of its neighbours, reach 1 (prompt-injection-matcher.ts). Strong phrases (1) stand alone; weak
// ones need company, because people write them to people too ("act as a guarantor", "IMPORTANT:", "send
// your CV to jobs@…"). Every pattern is linear: bounded repetitions of words that end where a space starts.
import {
  EARLIER,
  IGNORE_VERBS,
  MODEL,
  MODEL_HINTS,
  MODEL_STRONG,
  ORDERS,
  ORDER_VERB,
  SENSITIVE,
  VOCATIVE,
  VOCATIVE_STRONG,
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
  ),
  rule(
    "ignore_your_orders",
    1,
    String.raw`\b(?:ignore|disregard|forget|override|bypass|discard|drop|abandon|skip|cancel)\s+(?:all\s+(?:of\s+)?)?(?:your|the\s+system'?s?|the\s+developer'?s?|its)\s+(?:(?:own|current|existing|original|earlier|usual|default)\s+)?${ORDERS}\b`,
    IGNORE_VERBS,
  ),
  rule(
    "forget_everything",
    1,
    String.raw`\b(?:forget|disregard|ignore)\s+(?:everything|all(?:\s+that)?|anything|what)\s+(?:(?:you\s+(?:were|have\s+been|was)\s+)?(?:told|said|instructed|given|written|stated|mentioned|asked)|above|before|previously|earlier|so\s+far|up\s+to\s+(?:now|this\s+point))\b`,
    IGNORE_VERBS,
  ),
  rule(
    "ignore_the_orders",
    0.6,
    String.raw`\b(?:ignore|disregard|forget|override|bypass|discard|abandon)\s+(?:the|these|those|any|its)\s+${ORDERS}\b`,
    IGNORE_VERBS,
  ),
  rule(
    "orders_void",
    0.6,
    String.raw`\b(?:the\s+)?(?:above|previous|prior|preceding|earlier|original|old)\s+(?:[A-Za-z]+\s+)?(?:is|are|was|were)\s+(?:now\s+|only\s+)?(?:outdated|obsolete|void|invalid|wrong|cancell?ed|revoked|superseded|fake|(?:no\s+longer\s+(?:valid|relevant|applicable|in\s+effect))|(?:only\s+)?for\s+testing|a\s+test)\b`,
    [
      "outdated",
      "obsolete",
      "void",
      "invalid",
      "wrong",
      "cancel",
      "revoked",
      "superseded",
      "fake",
      "longer",
      "test",
    ],
  ),
  rule(
    "ignore_above",
    0.7,
    String.raw`\b(?:ignore|disregard|forget)\s+(?:all\s+(?:of\s+)?)?(?:the\s+|everything\s+)?(?:above|foregoing)\b`,
    IGNORE_VERBS,
  ),
  rule(
    "ignore_other_languages",
    1,
    String.raw`\bignore[rz]?\s+(?:toutes\s+)?(?:les\s+)?instructions\s+(?:pr[ée]c[ée]dentes|ant[ée]rieures)|\bignorier(?:e|en)?\s+(?:alle\s+)?(?:vorherigen|bisherigen|obigen|vorigen)\s+(?:Anweisungen|Instruktionen|Befehle)|\bignora(?:r)?\s+(?:todas\s+)?las\s+instrucciones\s+(?:anteriores|previas)`,
    ["ignor"],
  ),
  rule(
    "do_not_follow",
    0.8,
    String.raw`\b(?:do\s+not|don'?t|never|no\s+longer)\s+(?:follow|obey|listen\s+to|comply\s+with|adhere\s+to|respect)\s+(?:the\s+|your\s+|any\s+)?(?:(?:user'?s?|human'?s?)\b|(?:previous|prior|original|system|developer|safety|earlier|above|initial)\s+(?:(?:system|safety|developer)\s+)?${ORDERS})`,
    ["follow", "obey", "listen", "comply", "adhere", "respect"],
  ),
  // Chat-template and role markers that only a model reads.
  rule(
    "role_tag",
    1,
    String.raw`<\|(?:im_start|im_end|system|endoftext|start_header_id|end_header_id|eot_id)\|>|\[\/?INST\]|<<\/?SYS>>|<\/?system[_-]?prompt>`,
    ["<|", "inst]", "<<sys>>", "<</sys>>", "prompt>"],
  ),
  rule(
    "role_marker",
    0.8,
    String.raw`(?:<{2,8}|>{2,8}|\[{1,2}|\{{2}|={2,8}|\*{2,8}|-{2,8})[ \t]*(?:system|sys|admin|developer|assistant|instructions?)[ \t]*(?:>{2,8}|<{2,8}|\]{1,2}|\}{2}|={2,8}|\*{2,8}|-{2,8})`,
    ["system", "sys", "admin", "developer", "assistant", "instruction"],
  ),
  rule(
    "model_tag",
    1,
    String.raw`(?:[\[<]|\{\{)\/?[ \t]*(?:ai|llm|assistant|agent|model|bot|system)[-_ ]?(?:instructions?|prompt|commands?|directives?|notes?|only)[ \t]*(?:[\]>:]|\}\})`,
    ["ai", "llm", "assistant", "agent", "model", "bot", "system"],
  ),
  rule(
    "instruction_header",
    0.6,
    String.raw`#{2,8}[ \t]*(?:(?:new\s+)?instructions?|system(?:\s+(?:prompt|message|override))?|assistant|response)[ \t]*(?::|#{2,8})|^[ \t]*#{2,8}[ \t]*(?:new\s+)?(?:instructions?|system\s+(?:prompt|message|override))[ \t]*$`,
    ["#"],
    { flags: "gim" },
  ),
  rule(
    "role_line",
    0.8,
    String.raw`(?:^|["'(\[,>])[ \t]*\[?(?:system|assistant|developer|admin)\]?(?:\s+(?:message|prompt|note|override))?[ \t]*:[ \t]*(?=you\b|ignore|from\s+now|new\s+instructions|the\s+user|do\s+not|always|never|forget|disregard)`,
    ["system", "assistant", "developer", "admin"],
    { flags: "gim" },
  ),
  rule(
    "prompt_boundary",
    0.8,
    String.raw`\b(?:end|begin|start)\s+of\s+(?:the\s+)?(?:system\s+prompt|user\s+input|tool\s+output|untrusted\s+(?:content|input))\b|\b(?:BEGIN|END)\s+(?:SYSTEM|ADMIN|DEVELOPER)\s+(?:INSTRUCTIONS?|PROMPT|MESSAGE)\b|\[\s*(?:END|BEGIN|START)\s+OF\s+[A-Z][A-Z ]{1,30}\]`,
    ["end", "begin", "start"],
  ),
  // A new role or task for the model.
  rule("you_are_now", 0.6, String.raw`\byou\s+(?:are\s+)?(?:now|no\s+longer|henceforth)\b`, ["you"]),
  rule(
    "from_now_on",
    0.6,
    String.raw`\bfrom\s+now\s+on,?\s+(?:you|your|the\s+assistant|ignore|always|never|respond|reply|answer|only)\b`,
    ["now"],
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
    ["instruction", "new"],
  ),
  rule(
    "jailbreak_mode",
    1,
    String.raw`\b(?:enabled?|activated?|enter(?:ed)?|switch(?:ed)?\s+(?:in)?to|turn(?:ed)?\s+on)\s+(?:\w+\s+)?(?:god|dan|jailbreak|jailbroken|unrestricted|unfiltered|uncensored)\s+mode\b|\bdo\s+anything\s+now\b`,
    ["mode", "anything"],
  ),
  rule("jailbreak_word", 0.5, String.raw`\b(?:jailbreak|jailbroken|developer\s+mode|dan\s+mode)\b`, [
    "jailbr",
    "mode",
  ]),
  rule("pretend", 0.5, String.raw`\b(?:pretend\s+(?:to\s+be|you\s+are|that\s+you)|role-?play\s+as)\b`, [
    "pretend",
    "play",
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
    ["user", "human", "maintainers"],
  ),
  rule(
    "hide_the_note",
    0.8,
    String.raw`\b(?:never|do\s+not|don'?t)\s+(?:mention|reveal|disclose|acknowledge|say|admit)\s+(?:that\s+)?(?:this|these)\s+(?:note|instructions?|message|text|comment|request)s?\b`,
    ["never", "not", "don"],
  ),
  rule(
    "user_authorized",
    0.8,
    String.raw`\bthe\s+(?:user|owner|organi[sz]er|admin|customer)\s+(?:(?:has|have|actually|really|already|also|explicitly|pre-?)\s*){0,3}(?:wants|asked|requested|authori[sz]ed|approved|consented|permitted|allowed|instructed)\s+(?:you|the\s+assistant|the\s+ai|the\s+agent|(?:sharing|sending|forwarding|publishing|this))\b`,
    ["user", "owner", "organi", "admin", "customer"],
  ),
  rule(
    "skip_human",
    0.6,
    String.raw`\b(?:skip|bypass|without|avoid)\s+(?:any\s+|the\s+)?(?:human|manual)\s+(?:review|approval|oversight|confirmation|check)|\bwithout\s+(?:checking|asking|confirming|consulting)\s+(?:back\s+)?(?:with\s+)?(?:the\s+user|them|anyone|a\s+human)\b|\bhumans?\s+(?:have\s+|has\s+)?already\s+(?:pre-?)?approved\b|\bwithout\s+(?:any\s+)?(?:safety|security|content)\s+(?:checks?|filters?|restrictions?|guidelines|review)`,
    ["human", "manual", "without"],
  ),
  rule(
    "hidden_text",
    0.4,
    String.raw`<[a-z][^>\n]{0,120}?(?:\bhidden\b|display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*[01](?:px|pt)?\b|color\s*:\s*(?:white|#fff(?:fff)?)\b)|\b(?:invisible|hidden|white)\s+text\b|\bfont\s+size\s+[01]\b|\b[01]\s?(?:pt|px)\s+font\b|\(?do\s+not\s+(?:display|show|render)(?:\s+(?:this|to\s+the\s+user))?\)?`,
    ["hidden", "none", "font", "color", "invisible", "white", "display", "show", "render"],
  ),
  rule(
    "grant_trust",
    0.5,
    String.raw`\b(?:mark|treat|flag|add|set|label|classify)\s+(?:this|the|these|all|every|it)\s+(?:\w+\s+){0,3}?(?:as\s+)?(?:trusted|safe|verified|legitimate|whitelisted|allowed|approved|compliant)\b|\bwhitelist\b|\ballow-?list\s+the\b`,
    ["trusted", "safe", "verified", "legitimate", "whitelist", "allowed", "approved", "compliant", "allow"],
  ),
  // Asking for what the model was told.
  rule(
    "reveal_prompt",
    1,
    String.raw`\b(?:reveal|print|output|repeat|show|leak|dump|display|share|disclose|tell\s+me|recite|write\s+out|return)\s+(?:me\s+)?(?:\w+\s+){0,3}?(?:system\s+prompt|initial\s+(?:prompt|instructions)|hidden\s+(?:prompt|instructions)|developer\s+(?:message|prompt|instructions)|(?:instructions|prompt)\s+(?:above|you\s+were\s+given)|confidential\s+instructions)\b`,
    ["prompt", "instructions", "message"],
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
    ["user", ...MODEL_HINTS],
  ),
  rule("system_prompt", 0.4, String.raw`\bsystem\s+prompt\b`, ["system"]),
  // Sending data somewhere, or calling tools.
  rule(
    "exfiltrate",
    0.7,
    String.raw`\b(?:send|sending|forward|forwarding|e-?mail|post|upload|transmit|exfiltrate|leak|copy|submit|deliver|report|share|sharing)\s+(?:\S+\s+){0,8}?(?:to|at|into|with)\s+(?:https?:\/\/|www\.|[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+\.)`,
    ["http", "www.", "@"],
  ),
  rule("sensitive_data", 0.5, String.raw`\b${SENSITIVE}\b`, [
    "conversation", "chat", "messages", "user", "key", "token", "credential", "secret", "environment", "session",
  ]), // prettier-ignore
  rule("url_placeholder", 1, String.raw`!\[[^\]\n]{0,200}\]\(\s*https?:\/\/[^\s)]{1,500}\)`, ["!["], {
    accept: (match) => hasQueryPlaceholder(match[0]),
  }),
  rule(
    "into_url",
    0.6,
    String.raw`\b(?:append|include|add|insert|encode|put|embed)\s+(?:\S+\s+){0,6}?(?:in|into|to|as)\s+(?:the\s+|this\s+|a\s+)?(?:url|link|query\s+(?:string|parameter)|image\s+(?:url|link|source))\b`,
    ["url", "link", "query", "image"],
  ),
  rule(
    "call_tool",
    0.6,
    String.raw`\b(?:call|invoke|use|run|execute|trigger)\s+(?:the\s+)?[\x60'"]?[A-Za-z_][\w.-]{0,63}[\x60'"]?\s+(?:tool|function|action|plugin)\s+(?:with|to|and|using|passing|for)\b|\b(?:call|invoke|execute)\s+(?:the\s+)?(?:tool|function)\s+[\x60'"]?[A-Za-z_][\w.-]{0,63}|\b(?:using|with|via)\s+(?:the\s+|your\s+)?[\x60'"]?[A-Za-z_][\w.-]{0,63}[\x60'"]?\s+tool\b`,
    ["tool", "function", "action", "plugin"],
  ),
  rule(
    "run_command",
    0.3,
    String.raw`\b(?:execute|run)\s+(?:the\s+following|this)\s+(?:command|code|script|shell|sql|query)\b`,
    ["execute", "run"],
  ),
  // Talking to the model, and telling it what to answer.
  rule("address_model", 0.3, VOCATIVE, MODEL_HINTS, { flags: "gim" }),
  rule("address_model_strong", 0.3, VOCATIVE_STRONG, MODEL_HINTS, { flags: "gim" }),
  rule("order_to_model", 0.6, `${VOCATIVE}\\s*${ORDER_VERB}`, MODEL_HINTS, { flags: "gim" }),
  rule("order_to_model_strong", 0.4, `${VOCATIVE_STRONG}\\s*${ORDER_VERB}`, MODEL_HINTS, { flags: "gim" }),
  rule(
    "order_to_model_modal",
    0.6,
    String.raw`${VOCATIVE_STRONG}\s*(?:\S+\s+){0,8}?(?:should|must|shall|(?:is|are)\s+to|(?:is|are)\s+(?:required|expected)\s+to)\b`,
    MODEL_HINTS,
    { flags: "gim" },
  ),
  rule(
    "claims_authority",
    0.5,
    String.raw`\b(?:i\s+am|i'?m)\s+(?:the|your)\s+(?:developer|admin|administrator|owner|creator|operator|maintainer)\b|\b(?:the|my|your|our)\s+(?:user|traveller|traveler|customer|owner|organi[sz]er|client|manager|boss|admin|administrator|supervisor|operator|developer)\s+(?:has\s+)?(?:already\s+)?(?:agreed|approved|consented|confirmed|authori[sz]ed|asked\s+for\s+(?:it|this)|requested\s+(?:it|this)|signed\s+off|enabled)\b`,
    [
      "i am",
      "i'm",
      "im ",
      "agreed",
      "approved",
      "consented",
      "confirmed",
      "authori",
      "asked",
      "requested",
      "signed",
      "enabled",
    ],
  ),
  rule(
    "answer_everything",
    0.5,
    String.raw`\b(?:answer|respond\s+to|reply\s+to)\s+(?:every|all|any|each)\s+(?:question|message|request|query|prompt)s?\s+(?:with|by)\b`,
    ["answer", "respond", "reply"],
  ),
  rule(
    "model_should",
    0.8,
    String.raw`\b(?:automated\s+)?${MODEL}s?(?:\s+[A-Za-z]+){0,5}?\s+(?:should|must|shall|need\s+to|are\s+to|is\s+to|will\s+now|(?:are|is)\s+(?:required|expected|instructed|asked|obliged)\s+to|(?:are|is)\s+not\s+(?:permitted|allowed)\s+to)\s+[A-Za-z]`,
    MODEL_HINTS,
  ),
  rule(
    "for_models_only",
    0.8,
    String.raw`\b(?:intended|meant|written|addressed|is|are)\s+(?:only\s+)?(?:for|to)\s+(?:the\s+|any\s+)?${MODEL_STRONG}\b|\bon\s+behalf\s+of\s+(?:a|the)\s+user\b`,
    ["for", "to", "behalf"],
  ),
  rule(
    "if_you_are_model",
    0.8,
    String.raw`\bif\s+you(?:\s+are|'re|’re|re)\s+(?:an?\s+|any\s+)?(?:[A-Za-z]+\s+)?${MODEL}\b|\bif\s+(?:an?\s+|any\s+|the\s+)?${MODEL}\s+(?:is|are|reads?|summari[sz]es|processes)\b`,
    ["if"],
  ),
  rule(
    "model_reading",
    0.8,
    String.raw`\b${MODEL}s?\s+(?:reading|processing|summari[sz]ing|parsing|analy[sz]ing|browsing|scraping|crawling|reviewing|triaging|evaluating|screening|handling|modifying|who\s+reads?|that\s+reads?|that\s+handles?)\s+(?:this|these|my|our|your|the\s+(?:page|document|email|text|content|site|message|thread|file|contract|sheet|chat|ticket|repo|repository|code|note|invite|timeline|feed|post|review))\b`,
    MODEL_HINTS,
  ),
  rule(
    "when_summarizing",
    0.5,
    String.raw`\bwhen\s+(?:summari[sz]ing|answering|responding|asked\s+about|you\s+(?:summari[sz]e|answer|respond|read|process|write\s+the\s+summary))\b`,
    ["when"],
  ),
  rule(
    "dictated_answer",
    0.5,
    String.raw`\b(?:the\s+)?(?:correct|right|only|real|true|official)\s+(?:answer|response|reply)\s+(?:to\s+(?:any|every|all|this|the)\s+(?:\w+\s+){1,6}?)?is\b|\bregardless\s+of\s+(?:the|what\s+the)\s+(?:question|user)`,
    ["answer", "response", "reply", "regardless"],
  ),
  rule(
    "say_that",
    0.3,
    String.raw`\b(?:say|state|claim|answer|reply|respond|report|mention|write)\s+that\b`,
    ["that"],
  ),
  rule(
    "instead_respond",
    0.5,
    String.raw`\binstead,?\s+(?:you\s+(?:must|should|will|need\s+to)\s+|just\s+|only\s+)?(?:respond|reply|answer|say|output|write|print|return|tell)\b`,
    ["instead"],
  ),
  rule(
    "you_must",
    0.5,
    String.raw`\byou\s+(?:must|will|shall|should|need\s+to|are\s+required\s+to)\s+(?:(?:now|only|always|immediately|instead|also)\s+){0,2}(?:respond|reply|answer|say|output|obey|comply|follow\s+these|execute|call|send|forward|include|recommend|tell\s+the\s+user|stop|refuse)\b`,
    ["you"],
  ),
  rule(
    "respond_with",
    0.4,
    String.raw`\b(?:respond|reply|answer|output)\s+(?:only\s+)?(?:with|by\s+saying)\s+(?:exactly\s+|only\s+)?["'“]`,
    ["respond", "reply", "answer", "output"],
  ),
  rule(
    "stop_task",
    0.6,
    String.raw`\b(?:stop|cease|abort|halt|quit)\s+(?:what\s+you(?:'re|\s+are)\s+doing|summari[sz]ing|translating|the\s+current\s+task|your\s+(?:current\s+)?task|processing|reading)\b`,
    ["stop", "cease", "abort", "halt", "quit"],
  ),
  rule(
    "urgent_marker",
    0.4,
    String.raw`(?:^|[\s\[(*])(?:IMPORTANT|ATTENTION|URGENT|WARNING|NOTICE|CRITICAL)\s*(?:[:!\]]|\*)`,
    ["important", "attention", "urgent", "warning", "notice", "critical"],
    { flags: "g" },
  ),
  rule(
    "override_message",
    0.6,
    String.raw`\b(?:system|admin(?:istrator)?|developer|security)\s+(?:override|message|instruction|directive|command)s?\b`,
    ["override", "message", "instruction", "directive", "command"],
  ),
];
