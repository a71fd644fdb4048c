export {
  CAMT055_VERSIONS,
  looksLikeCamt055,
  readCamt055,
  type Camt055Problem,
  type Camt055Request,
  type Camt055Result,
  type Camt055Transaction,
  type Camt055Version,
} from './read.js';
