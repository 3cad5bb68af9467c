export { authorizeDispatch, type Authorization } from './authorize-dispatch.js';
export { SENDER_POLICY_VERSION } from './compile-sender-policy.js';
export { loadSenderPolicy, parseSenderPolicy } from './load-sender-policy.js';
export { ANY, senderMay, type AllowedSenders, type PolicyRule, type SenderPolicy } from './sender-policy.js';
