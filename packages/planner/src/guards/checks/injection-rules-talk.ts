// The prompt_injection rules that hear someone talk to the model, or tell it what to answer (see
// injection-rules.ts for how they are weighed and run).
import {
  MODEL,
  MODEL_STARTS,
  MODEL_STRONG,
  MODEL_STRONG_STARTS,
  ORDER_VERB,
  VOCATIVE,
  VOCATIVE_GATE,
  VOCATIVE_STRONG,
  rule,
  type InjectionRule,
} from "./injection-vocabulary.js";

/** The rules that start with a vocative run only where one is (VOCATIVE_GATE), tested once per place. */
const GATED = { flags: "gim", gate: VOCATIVE_GATE };

export const TALK_RULES: readonly InjectionRule[] = [
  // Talking to the model, and telling it what to answer.
  rule("address_model", 0.3, VOCATIVE, MODEL_STARTS, { flags: "gim" }),
  rule("address_model_strong", 0.3, VOCATIVE_STRONG, MODEL_STRONG_STARTS, GATED),
  rule("order_to_model", 0.6, `${VOCATIVE}\\s*${ORDER_VERB}`, MODEL_STARTS, GATED),
  rule("order_to_model_strong", 0.4, `${VOCATIVE_STRONG}\\s*${ORDER_VERB}`, MODEL_STRONG_STARTS, GATED),
  rule(
    "order_to_model_modal",
    0.6,
    String.raw`${VOCATIVE_STRONG}\s*(?:\S+\s+){0,8}?(?:should|must|shall|(?:is|are)\s+to|(?:is|are)\s+(?:required|expected)\s+to)\b`,
    MODEL_STRONG_STARTS,
    GATED,
  ),
  rule(
    "claims_authority",
    0.5,
    String.raw`(?<=\b(?:i\s+am|i'?m)\s+(?:the|your)\s+)(?:developer|admin|administrator|owner|creator|operator|maintainer)\b|(?<=\b(?:the|my|your|our)\s+)(?:user|traveller|traveler|customer|owner|organi[sz]er|client|manager|boss|admin|administrator|supervisor|operator|developer)\s+(?:has\s+)?(?:already\s+)?(?:agreed|approved|consented|confirmed|authori[sz]ed|asked\s+for\s+(?:it|this)|requested\s+(?:it|this)|signed\s+off|enabled)\b`,
    [
      "developer",
      "admin",
      "administrator",
      "owner",
      "creator",
      "operator",
      "maintainer",
      "user",
      "traveller",
      "traveler",
      "customer",
      "organiser",
      "organizer",
      "client",
      "manager",
      "boss",
      "supervisor",
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
    ["automated", ...MODEL_STARTS],
  ),
  rule(
    "for_models_only",
    0.8,
    String.raw`(?<=\b(?:intended|meant|written|addressed|is|are)\s+(?:only\s+)?(?:for|to)\s+(?:the\s+|any\s+)?)${MODEL_STRONG}\b|(?<=\bon\s+)behalf\s+of\s+(?:a|the)\s+user\b`,
    [...MODEL_STRONG_STARTS, "behalf"],
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
    MODEL_STARTS,
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
    String.raw`\b(?:correct|right|only|real|true|official)\s+(?:answer|response|reply)\s+(?:to\s+(?:any|every|all|this|the)\s+(?:\w+\s+){1,6}?)?is\b|\bregardless\s+of\s+(?:the|what\s+the)\s+(?:question|user)`,
    ["correct", "right", "only", "real", "true", "official", "regardless"],
  ),
  rule(
    "say_that",
    0.3,
    String.raw`\b(?:say|state|claim|answer|reply|respond|report|mention|write)\s+that\b`,
    ["say", "state", "claim", "answer", "reply", "respond", "report", "mention", "write"],
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
    String.raw`(?<=^|[\s\[(*])(?:IMPORTANT|ATTENTION|URGENT|WARNING|NOTICE|CRITICAL)\s*(?:[:!\]]|\*)`,
    ["important", "attention", "urgent", "warning", "notice", "critical"],
    { flags: "g" },
  ),
  rule(
    "override_message",
    0.6,
    String.raw`\b(?:system|admin(?:istrator)?|developer|security)\s+(?:override|message|instruction|directive|command)s?\b`,
    ["system", "admin", "administrator", "developer", "security"],
  ),
];
