import { pathLabel, titleWithRelativePaths, type PathLabel } from '../src/contract/pathLabel';

/** The folder the panel's sessions work in, as each snapshot says; cards name files through it. */
export class WorkspacePaths {
  private root: string | null = null;

  set(root: string | null): void {
    this.root = root;
  }

  label(path: string): PathLabel {
    return pathLabel(path, this.root);
  }

  title(title: string): string {
    return titleWithRelativePaths(title, this.root);
  }
}
