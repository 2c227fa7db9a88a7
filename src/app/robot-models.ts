// The robot domain's committed models (public/models/robot, copied from results/ by
// `npm run build:robot-models`): each file is fetched once and checked against the folder's manifest
// (size, then sha256) with the same checks and messages as the coding models (src/app/models.ts), so a
// missing, truncated or replaced file is refused with its name before a worker parses it.
import { appUrl } from '../primitives/app-root.ts';
import { ModelIntegrityError, manifestEntry, parseManifestFiles, subtleSha256Hex, verifyModelFile, type WrittenManifest } from '../model/model-integrity.ts';
import { ROBOT_MODELS_REMEDY, ROBOT_MODEL_FILES, type RobotModelFile } from '../embodied/robot-model-files.ts';

export const ROBOT_MODELS_NAME = 'public/models/robot';

/** Reads the manifest once and hands out checked files by role. */
export class RobotModelFiles {
  private constructor(
    private readonly root: URL,
    private readonly manifest: WrittenManifest,
    private readonly name: string,
  ) {}

  static async open(base = appUrl('models/robot/'), name = ROBOT_MODELS_NAME): Promise<RobotModelFiles> {
    const root = new URL(base, self.location.href);
    const manifestPath = `${name}/manifest.json`;
    let res: Response;
    try {
      res = await fetch(new URL('manifest.json', root));
    } catch (e) {
      throw new ModelIntegrityError(manifestPath, `${manifestPath}: could not be fetched (${e instanceof Error ? e.message : String(e)})`);
    }
    if (!res.ok) throw new ModelIntegrityError(manifestPath, `${manifestPath}: HTTP ${res.status}; the robot models are missing — ${ROBOT_MODELS_REMEDY}`);
    return new RobotModelFiles(root, parseManifestFiles(await res.text(), manifestPath, ROBOT_MODELS_REMEDY), name);
  }

  /** The file's bytes, checked against the manifest. */
  async bytes(file: RobotModelFile): Promise<Uint8Array> {
    const { name: fileName } = ROBOT_MODEL_FILES[file];
    const path = `${this.name}/${fileName}`;
    const entry = manifestEntry(this.manifest, fileName, `${this.name}/manifest.json`, ROBOT_MODELS_REMEDY);
    let res: Response;
    try {
      res = await fetch(new URL(fileName, this.root));
    } catch (e) {
      throw new ModelIntegrityError(path, `${path}: could not be fetched (${e instanceof Error ? e.message : String(e)})`);
    }
    if (!res.ok) throw new ModelIntegrityError(path, `${path}: HTTP ${res.status}; the file is missing — ${ROBOT_MODELS_REMEDY}`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    await verifyModelFile(path, bytes, entry, subtleSha256Hex, ROBOT_MODELS_REMEDY);
    return bytes;
  }

  /** A report (JSON), checked like a model file. */
  async json(file: 'progressReport' | 'policyReport'): Promise<unknown> {
    const path = `${this.name}/${ROBOT_MODEL_FILES[file].name}`;
    const text = new TextDecoder().decode(await this.bytes(file));
    try {
      return JSON.parse(text);
    } catch (e) {
      throw new ModelIntegrityError(path, `${path}: not valid JSON (${e instanceof Error ? e.message : String(e)}); ${ROBOT_MODELS_REMEDY}`);
    }
  }
}
