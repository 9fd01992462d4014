import type { AgentVersionSummary, TestCase, TestRunRecord, TestRunsListResponse } from "@waddle/protocol";
import { useStore } from "zustand";
import { createStore, type StoreApi } from "zustand/vanilla";
import type { AgentsApi } from "../../api/agents-api.js";
import type { TestsApi } from "../../api/tests-api.js";
import { getErrorMessage } from "../../api/api-error.js";
import { useEditor, type Editor } from "../../editor/editor-context.js";

export type TestRunSummary = TestRunsListResponse["testRuns"][number];

/**
 * The Tests tab's state: the open agent's cases, its saved versions, its test runs (summaries, and the
 * whole records read so far, kept live by `test_run_updated`), the one shown and a chosen comparison.
 */
export interface TestsState {
  agentId: string | null;
  loading: boolean;
  cases: TestCase[];
  versions: AgentVersionSummary[];
  testRuns: TestRunSummary[];
  records: Record<string, TestRunRecord>;
  /** The test run whose results are shown beside the cases (the latest started here, or one picked). */
  shownId: string | null;
  /** Two test runs compared (A, B), or none. */
  compare: { a: string; b: string } | null;
  error: string | null;
  /** Loads the agent's suite, versions and test runs (again, when asked for another agent). */
  load(agentId: string): Promise<void>;
  /** Starts a test run of all cases or of `caseIds` on `agentVersion`, and shows it. */
  runSuite(options: { agentVersion: number | undefined; caseIds?: string[] }): Promise<void>;
  deleteCase(caseId: string): Promise<void>;
  /** Saves a case's new expectations (the whole suite is written back); resolves false when refused. */
  setExpect(caseId: string, expect: TestCase["expect"]): Promise<boolean>;
  /** A record from `test_run_updated` or a read: kept, and listed when new. */
  applyRecord(record: TestRunRecord): void;
  show(testRunId: string): Promise<void>;
  openCompare(a: string, b: string): Promise<void>;
  closeCompare(): void;
  dismissError(): void;
}

export type TestsStore = StoreApi<TestsState>;

/** The routes the Tests tab uses: its suite and test runs, and the versions to run them on. */
export type TestsStoreApi = TestsApi & Pick<AgentsApi, "listVersions">;

export function createTestsStore(api: TestsStoreApi): TestsStore {
  return createStore<TestsState>()((set, get) => {
    const read = async (testRunId: string) => {
      const record = await api.getTestRun(testRunId);
      get().applyRecord(record);
      return record;
    };
    const fail = (error: unknown) => set({ error: getErrorMessage(error) });
    return {
      agentId: null,
      loading: false,
      cases: [],
      versions: [],
      testRuns: [],
      records: {},
      shownId: null,
      compare: null,
      error: null,
      async load(agentId) {
        if (get().agentId !== agentId)
          set({ agentId, cases: [], versions: [], testRuns: [], records: {}, shownId: null, compare: null });
        set({ loading: true, error: null });
        try {
          const [suite, versions, testRuns] = await Promise.all([
            api.getTestSuite(agentId),
            api.listVersions(agentId),
            api.listTestRuns(agentId),
          ]);
          if (get().agentId !== agentId) return;
          set({ cases: suite.cases, versions, testRuns, loading: false });
          const latest = get().shownId ?? testRuns[0]?.id;
          if (latest) await get().show(latest);
        } catch (error) {
          if (get().agentId === agentId) set({ loading: false, error: getErrorMessage(error) });
        }
      },
      async runSuite({ agentVersion, caseIds }) {
        const agentId = get().agentId;
        if (!agentId) return;
        set({ error: null });
        try {
          const { testRunId } = await api.startTestRun(agentId, {
            ...(agentVersion === undefined ? {} : { agentVersion }),
            ...(caseIds ? { caseIds } : {}),
          });
          set({ shownId: testRunId });
          // the updates that came before this tab watched are read once here
          await read(testRunId);
        } catch (error) {
          fail(error);
        }
      },
      async deleteCase(caseId) {
        const agentId = get().agentId;
        if (!agentId) return;
        try {
          await api.deleteTestCase(agentId, caseId);
          set({ cases: get().cases.filter((testCase) => testCase.id !== caseId) });
        } catch (error) {
          fail(error);
        }
      },
      async setExpect(caseId, expect) {
        const agentId = get().agentId;
        if (!agentId) return false;
        const cases = get().cases.map((testCase) =>
          testCase.id === caseId ? { ...testCase, expect } : testCase,
        );
        try {
          const suite = await api.putTestSuite(agentId, { version: 1, agentId, cases });
          if (get().agentId === agentId) set({ cases: suite.cases });
          return true;
        } catch (error) {
          fail(error);
          return false;
        }
      },
      applyRecord(record) {
        if (record.agentId !== get().agentId) return;
        const { cases: _cases, ...summary } = record;
        const listed = get().testRuns.some((entry) => entry.id === record.id);
        set({
          records: { ...get().records, [record.id]: record },
          testRuns: listed
            ? get().testRuns.map((entry) => (entry.id === record.id ? summary : entry))
            : [summary, ...get().testRuns],
        });
      },
      async show(testRunId) {
        set({ shownId: testRunId });
        try {
          await read(testRunId);
        } catch (error) {
          fail(error);
        }
      },
      async openCompare(a, b) {
        set({ compare: { a, b }, error: null });
        try {
          await Promise.all([a, b].filter((id) => !get().records[id]).map(read));
        } catch (error) {
          fail(error);
        }
      },
      closeCompare: () => set({ compare: null }),
      dismissError: () => set({ error: null }),
    };
  });
}

// one per editor, made on first use (the Tests tab and Save as test share it)
const stores = new WeakMap<Editor, TestsStore>();

export function getTestsStore(editor: Editor): TestsStore {
  let store = stores.get(editor);
  if (!store) {
    store = createTestsStore(editor.api);
    stores.set(editor, store);
  }
  return store;
}

export function useTests<T>(selector: (state: TestsState) => T): T {
  return useStore(getTestsStore(useEditor()), selector);
}
