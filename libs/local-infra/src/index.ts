export { provisionInfrastructure, type ProvisionedInfrastructure, type ProvisionOptions } from './provision.js';
export type { InfrastructureSource } from './provisioning-plan.js';
export type { ProgressListener } from './progress.js';
export type { StartedKafka, StartedRegistry } from './started-services.js';
export {
  isContainerRuntimeAvailable,
  startKafkaContainer,
  startRegistryContainer,
  KAFKA_IMAGE,
  REGISTRY_IMAGE,
} from './start-containers.js';
export {
  startLocalKafka,
  type LocalKafka,
  type LocalKafkaNode,
  type StartLocalKafkaOptions,
  type StartLocalKafkaClusterOptions,
} from './start-local-kafka.js';
export { replicationOf } from './server-properties.js';
export {
  isolateNodes,
  networkNamespacesUsable,
  type IsolatedNetworks,
  type NodeNetwork,
} from './network-namespaces.js';
export {
  startSecuredLocalKafka,
  LOCAL_BROKER_PRINCIPAL,
  type SecuredLocalKafka,
  type StartSecuredLocalKafkaOptions,
  type KafkaAdminIdentity,
  type ScramUser,
  type ScramMechanism,
} from './start-secured-kafka.js';
export {
  createCertificateAuthority,
  type CertificateAuthority,
  type IssuedCertificate,
  type IssueOptions,
} from './certificates.js';
export { startLocalRegistry, type StartLocalRegistryOptions } from './start-local-registry.js';
export {
  startRegistryFront,
  type RegistryFront,
  type RegistryPrincipal,
  type StartRegistryFrontOptions,
} from './registry-front.js';
export { GLOBAL_COMPATIBILITY } from './global-compatibility.js';
export { dieWithParent } from './java-process.js';
