/** How the panel names a file an agent mentions (src/util/pathLabel.ts, published here); the fidelity report names files the same way. */
export { pathLabel, titleWithRelativePaths, type PathLabel } from '../util/pathLabel';
