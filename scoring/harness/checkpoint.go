package harness

import (
	"encoding/json"

	"github.com/docscore/docscore/scoring/evalcase"
)

// checkpointVersion changes when the checkpoint format does; a checkpoint
// of another version is not reused.
const checkpointVersion = 1

// checkpoint is the stored form of one completed stage.
type checkpoint struct {
	Version     int                     `json:"version"`
	Key         string                  `json:"key"`
	Fingerprint string                  `json:"fingerprint"`
	Metrics     []evalcase.MetricResult `json:"metrics"`
}

// checkpointKey names a stage in a store: the pipeline (or "case:" and the
// case id for a case on its own) and the stage id.
func checkpointKey(pipelineID, stageID string) string {
	return pipelineID + "/" + stageID
}

func loadCheckpoint(s evalcase.CheckpointStore, key, fingerprint string) ([]evalcase.MetricResult, bool, error) {
	data, ok, err := s.Load(key)
	if err != nil || !ok {
		return nil, false, err
	}
	var cp checkpoint
	if json.Unmarshal(data, &cp) != nil || cp.Version != checkpointVersion || cp.Key != key || cp.Fingerprint != fingerprint {
		return nil, false, nil
	}
	for _, m := range cp.Metrics {
		if m.Check() != nil {
			return nil, false, nil
		}
	}
	return cp.Metrics, true, nil
}

func saveCheckpoint(s evalcase.CheckpointStore, key, fingerprint string, metrics []evalcase.MetricResult) error {
	data, err := evalcase.CanonicalJSON(checkpoint{Version: checkpointVersion, Key: key, Fingerprint: fingerprint, Metrics: metrics})
	if err != nil {
		return err
	}
	return s.Save(key, data)
}
