// `npm run analyze`: custom-elements.json (repo root, gitignored, shipped in the package) from the JSDoc of
// src/element/svc-checkout.ts. Lit's internal reactive state (`_name: { state: true }`) is not API: dropped.
export default {
  globs: ['src/element/svc-checkout.ts'],
  outdir: '.',
  litelement: true,
  plugins: [
    {
      name: 'drop-private-state',
      packageLinkPhase({ customElementsManifest }) {
        for (const mod of customElementsManifest.modules) {
          for (const decl of mod.declarations ?? []) {
            if (decl.attributes) decl.attributes = decl.attributes.filter((a) => !a.name.startsWith('_'));
            if (decl.members) decl.members = decl.members.filter((m) => !m.name.startsWith('_') && m.privacy !== 'private');
          }
        }
      },
    },
  ],
};
