/** The import samples (tests/fixtures/import/), as the playground's Import panel opens them. */
import { expect, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';

/** A sample's path on disk. */
export const sample = (name: string): string => fileURLToPath(new URL(`../fixtures/import/${name}`, import.meta.url));

/** Opens the playground, and the sample from a file in the Import panel (under Share). */
export async function importSample(page: Page, name: string): Promise<void> {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
  await page.getByRole('tab', { name: 'Share' }).click();
  await page.locator('#import-file').setInputFiles(sample(name));
  await expect(page.locator('#import-message')).toContainText(`Imported ${name}`);
}
