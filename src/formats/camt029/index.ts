export {
  writeCamt029,
  type CancellationStatus,
  type Camt029Report,
  type Camt029Transaction,
  type Camt029Version,
} from './write.js';
