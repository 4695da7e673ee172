// Command oracle runs the real kube-scheduler over scenarios and prints what it decided, as JSON lines.
//
// It is built inside a Kubernetes source tree (it uses the tree's packages and vendored dependencies); see
// tools/oracle/README.md. Each input line is one scenario: {"id", "featureGates", "snapshot": [objects],
// "manifests": [objects]} (the objects are what `kubectl get -o json` prints). The snapshot's objects exist before the
// scheduler starts; the manifests' pods are created one by one, in order, before the scheduling loop starts, so that
// the queue sees them as the simulator's queue does. What the API server and the controllers would add is added here:
// defaulting, the Priority, DefaultTolerationSeconds and RuntimeClass admission plugins, claims generated from
// templates, resourceVersion on every write and the binding subresource.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-logr/logr"
	v1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	resourcev1 "k8s.io/api/resource/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/kubernetes/fake"
	clientscheme "k8s.io/client-go/kubernetes/scheme"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/node/install"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	_ "k8s.io/kubernetes/pkg/apis/resource/install"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/profile"
)

// Scenario is one input line.
type Scenario struct {
	ID           string            `json:"id"`
	FeatureGates map[string]bool   `json:"featureGates"`
	Snapshot     []json.RawMessage `json:"snapshot"`
	Manifests    []json.RawMessage `json:"manifests"`
}

// Alloc is one device of a claim's allocation.
type Alloc struct {
	Request string `json:"request"`
	Driver  string `json:"driver"`
	Pool    string `json:"pool"`
	Device  string `json:"device"`
}

// PodResult is what happened to one pod the manifests created.
type PodResult struct {
	Node      string                      `json:"node,omitempty"`
	Nominated string                      `json:"nominated,omitempty"`
	Reason    string                      `json:"reason,omitempty"`
	Message   string                      `json:"message,omitempty"`
	Rejected  string                      `json:"rejected,omitempty"` // the API server (admission) would refuse the pod
	Victims   []string                    `json:"victims,omitempty"`
	Claims    map[string][]Alloc          `json:"claims,omitempty"`  // pod claim name -> devices
	Scores    map[string]int64            `json:"scores,omitempty"`  // node -> final score of the last scoring
	Plugins   map[string]map[string]int64 `json:"plugins,omitempty"` // with WASDRA_ORACLE_PLUGINS: node -> plugin -> weighted score
	Attempts  int                         `json:"attempts,omitempty"`
}

// Result is one output line.
type Result struct {
	ID       string                `json:"id"`
	Error    string                `json:"error,omitempty"`
	TimedOut bool                  `json:"timedOut,omitempty"`
	Pods     map[string]*PodResult `json:"pods"`
	Deleted  []string              `json:"deleted,omitempty"`
	Seconds  float64               `json:"seconds"`
}

func main() {
	gates := flag.String("feature-gates", "", "Name=true,... (must equal every scenario's featureGates)")
	timeout := flag.Duration("timeout", 30*time.Second, "give up on a scenario after this long")
	flag.Parse()
	klog.InitFlags(nil)
	klog.SetLoggerWithOptions(logr.New(preemptSink{}), klog.ContextualLogger(true))
	_ = flag.Set("v", "0")
	if *gates != "" {
		if err := utilfeature.DefaultMutableFeatureGate.Set(*gates); err != nil {
			fmt.Fprintln(os.Stderr, "oracle: --feature-gates:", err)
			os.Exit(2)
		}
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := json.NewEncoder(os.Stdout)
	for {
		line, err := in.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			var sc Scenario
			var res *Result
			if jerr := json.Unmarshal(line, &sc); jerr != nil {
				res = &Result{Error: "bad scenario line: " + jerr.Error()}
			} else {
				res = runScenario(&sc, *gates, *timeout)
			}
			if eerr := out.Encode(res); eerr != nil {
				fmt.Fprintln(os.Stderr, "oracle:", eerr)
				os.Exit(2)
			}
		}
		if err != nil {
			return
		}
	}
}

func gateString(g map[string]bool) string {
	keys := make([]string, 0, len(g))
	for k := range g {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+"="+strconv.FormatBool(g[k]))
	}
	return strings.Join(parts, ",")
}

func decode(raw json.RawMessage) (runtime.Object, error) {
	obj, _, err := clientscheme.Codecs.UniversalDeserializer().Decode(raw, nil, nil)
	if err != nil {
		return nil, err
	}
	legacyscheme.Scheme.Default(obj) // the API server's defaulting (pkg/apis/*/v1/defaults.go)
	return obj, nil
}

// world holds the decoded objects of a scenario and the admission state derived from them.
type world struct {
	objs     []runtime.Object
	pending  []*v1.Pod
	classes  []*schedulingv1.PriorityClass
	runtimes map[string]*nodev1.RuntimeClass
	rejected map[string]string
}

func key(ns, name string) string { return ns + "/" + name }

func load(sc *Scenario) (*world, error) {
	w := &world{runtimes: map[string]*nodev1.RuntimeClass{}, rejected: map[string]string{}}
	var pods []*v1.Pod
	var bound []*v1.Pod
	var templates = map[string]*resourcev1.ResourceClaimTemplate{}
	var rules []runtime.Object
	for i, group := range [][]json.RawMessage{sc.Snapshot, sc.Manifests} {
		for _, raw := range group {
			obj, err := decode(raw)
			if err != nil {
				return nil, fmt.Errorf("decode: %w", err)
			}
			switch o := obj.(type) {
			case *v1.Pod:
				if i == 1 && o.Spec.NodeName == "" {
					pods = append(pods, o)
				} else {
					bound = append(bound, o)
				}
				continue
			case *schedulingv1.PriorityClass:
				w.classes = append(w.classes, o)
			case *nodev1.RuntimeClass:
				w.runtimes[o.Name] = o
			case *resourcev1.ResourceClaimTemplate:
				templates[key(o.Namespace, o.Name)] = o
			}
			if strings.HasSuffix(obj.GetObjectKind().GroupVersionKind().Kind, "DeviceTaintRule") {
				rules = append(rules, obj)
				continue // DRADeviceTaintRules panics the 1.36.2 slice tracker: the rules' taints are applied below
			}
			w.objs = append(w.objs, obj)
		}
	}
	applyTaintRules(w.objs, rules)
	for _, p := range bound {
		if err := w.admit(p); err != nil {
			return nil, fmt.Errorf("snapshot pod %s/%s: %w", p.Namespace, p.Name, err)
		}
		w.objs = append(w.objs, p)
	}
	for _, p := range pods {
		if p.UID == "" {
			p.UID = types.UID(fmt.Sprintf("uid-%s-%s", p.Namespace, p.Name))
		}
		if err := w.admit(p); err != nil {
			w.rejected[key(p.Namespace, p.Name)] = err.Error()
			continue
		}
		claims, err := claimsFromTemplates(p, templates)
		if err != nil {
			w.rejected[key(p.Namespace, p.Name)] = err.Error()
			continue
		}
		for _, c := range claims {
			w.objs = append(w.objs, c)
		}
		w.pending = append(w.pending, p)
	}
	return w, nil
}

// admit does what the admission plugins would: Priority (plugin/pkg/admission/priority), DefaultTolerationSeconds
// (plugin/pkg/admission/defaulttolerationseconds), RuntimeClass (plugin/pkg/admission/runtimeclass).
func (w *world) admit(p *v1.Pod) error {
	name := p.Spec.PriorityClassName
	var value int32
	var policy *v1.PreemptionPolicy
	if name == "" {
		var def *schedulingv1.PriorityClass
		for _, pc := range w.classes {
			if pc.GlobalDefault && (def == nil || def.Value > pc.Value) {
				def = pc
			}
		}
		if def != nil {
			name, value, policy = def.Name, def.Value, def.PreemptionPolicy
		} else {
			lower := v1.PreemptLowerPriority
			policy = &lower
		}
	} else {
		var found *schedulingv1.PriorityClass
		for _, pc := range w.classes {
			if pc.Name == name {
				found = pc
			}
		}
		if found == nil {
			return fmt.Errorf("no PriorityClass with name %s was found", name)
		}
		value, policy = found.Value, found.PreemptionPolicy
	}
	p.Spec.PriorityClassName = name
	if p.Spec.Priority != nil && *p.Spec.Priority != value {
		return fmt.Errorf("the integer value of priority (%d) must not be provided in pod spec", *p.Spec.Priority)
	}
	p.Spec.Priority = &value
	if policy != nil {
		if p.Spec.PreemptionPolicy != nil && *p.Spec.PreemptionPolicy != *policy {
			return fmt.Errorf("the string value of PreemptionPolicy (%s) must not be provided in pod spec", *p.Spec.PreemptionPolicy)
		}
		pol := *policy
		p.Spec.PreemptionPolicy = &pol
	}
	addDefaultToleration(p, v1.TaintNodeNotReady)
	addDefaultToleration(p, v1.TaintNodeUnreachable)
	if p.Spec.RuntimeClassName != nil && *p.Spec.RuntimeClassName != "" {
		rc := w.runtimes[*p.Spec.RuntimeClassName]
		if rc == nil {
			return fmt.Errorf("pod rejected: RuntimeClass %q not found", *p.Spec.RuntimeClassName)
		}
		if rc.Overhead != nil {
			p.Spec.Overhead = rc.Overhead.PodFixed
		}
		if rc.Scheduling != nil {
			if len(rc.Scheduling.NodeSelector) > 0 && p.Spec.NodeSelector == nil {
				p.Spec.NodeSelector = map[string]string{}
			}
			for k, v := range rc.Scheduling.NodeSelector {
				if old, ok := p.Spec.NodeSelector[k]; ok && old != v {
					return fmt.Errorf("conflict: runtimeClass.scheduling.nodeSelector[%s] = %s; pod.spec.nodeSelector[%s] = %s", k, v, k, old)
				}
				p.Spec.NodeSelector[k] = v
			}
			p.Spec.Tolerations = mergeTolerations(p.Spec.Tolerations, rc.Scheduling.Tolerations)
		}
	}
	return nil
}

func addDefaultToleration(p *v1.Pod, taintKey string) {
	for _, t := range p.Spec.Tolerations {
		if (t.Key == taintKey || t.Key == "") && (t.Effect == v1.TaintEffectNoExecute || t.Effect == "") {
			return
		}
	}
	secs := int64(300)
	p.Spec.Tolerations = append(p.Spec.Tolerations, v1.Toleration{Key: taintKey, Operator: v1.TolerationOpExists,
		Effect: v1.TaintEffectNoExecute, TolerationSeconds: &secs})
}

func mergeTolerations(have, add []v1.Toleration) []v1.Toleration {
	for _, t := range add {
		dup := false
		for _, h := range have {
			if h.MatchToleration(&t) {
				dup = true
			}
		}
		if !dup {
			have = append(have, t)
		}
	}
	return have
}

// claimsFromTemplates does what the resourceclaim controller does for a pod (pkg/controller/resourceclaim): a claim
// per template reference, owned by the pod, recorded in pod.status.resourceClaimStatuses.
func claimsFromTemplates(p *v1.Pod, templates map[string]*resourcev1.ResourceClaimTemplate) ([]*resourcev1.ResourceClaim, error) {
	var out []*resourcev1.ResourceClaim
	isTrue := true
	for _, pc := range p.Spec.ResourceClaims {
		if pc.ResourceClaimTemplateName == nil {
			continue
		}
		t := templates[key(p.Namespace, *pc.ResourceClaimTemplateName)]
		if t == nil {
			continue // the controller waits; the scheduler reports the missing claim
		}
		name := p.Name + "-" + pc.Name
		claim := &resourcev1.ResourceClaim{
			ObjectMeta: metav1.ObjectMeta{
				Name: name, Namespace: p.Namespace,
				Labels: t.Spec.Labels, Annotations: map[string]string{"resource.kubernetes.io/pod-claim-name": pc.Name},
				OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: p.Name, UID: p.UID,
					Controller: &isTrue, BlockOwnerDeletion: &isTrue}},
			},
			Spec: *t.Spec.Spec.DeepCopy(),
		}
		legacyscheme.Scheme.Default(claim)
		out = append(out, claim)
		n := name
		p.Status.ResourceClaimStatuses = append(p.Status.ResourceClaimStatuses,
			v1.PodResourceClaimStatus{Name: pc.Name, ResourceClaimName: &n})
	}
	return out, nil
}

// recorder keeps the events the scheduler records: Preempted (victim, preemptor).
type recorder struct {
	mu      sync.Mutex
	victims map[string][]string // preemptor ns/name -> victims
}

func (r *recorder) Eventf(regarding, related runtime.Object, _, reason, _, _ string, _ ...interface{}) {
	if reason != "Preempted" || regarding == nil || related == nil {
		return
	}
	a, err1 := meta.Accessor(regarding)
	b, err2 := meta.Accessor(related)
	if err1 != nil || err2 != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	k := key(b.GetNamespace(), b.GetName())
	r.victims[k] = append(r.victims[k], key(a.GetNamespace(), a.GetName()))
}

func (r *recorder) WithLogger(klog.Logger) events.EventRecorderLogger { return r }

// scoreSink is a logr sink that keeps the final node scores the scheduler logs at V(10) (schedule_one.go
// prioritizeNodes) and drops everything else.
type scoreSink struct {
	mu       sync.Mutex
	scores   map[string]map[string]int64
	attempts map[string]int
	started  map[string]int64 // unix nanos of the pod's last attempt
	plugins  map[string]map[string]map[string]int64
}

func (s *scoreSink) Init(logr.RuntimeInfo)  {}
func (s *scoreSink) Enabled(level int) bool { return true }
func (s *scoreSink) Error(err error, msg string, kv ...interface{}) {
	debugf("error: %s: %v %v", msg, err, kv)
}
func (s *scoreSink) WithValues(kv ...interface{}) logr.LogSink {
	return &scoreChild{root: s, values: kv}
}
func (s *scoreSink) WithName(string) logr.LogSink { return s }
func (s *scoreSink) Info(level int, msg string, kv ...interface{}) {
	if level <= 5 {
		debugf("%d %s %v", level, msg, kv)
	}
	s.record(msg, kv)
}

// preempting counts kube-scheduler's asynchronous preemption goroutines under way. They log through klog's global
// logger (their context is context.Background()), so it is set to preemptSink, which counts their start and end
// messages (framework/preemption/executor.go prepareCandidateAsync).
var preempting atomic.Int64

type preemptSink struct{}

func (preemptSink) Init(logr.RuntimeInfo) {}
func (preemptSink) Enabled(int) bool      { return true }
func (preemptSink) Error(err error, msg string, kv ...interface{}) {
	debugf("error: %s: %v %v", msg, err, kv)
}
func (p preemptSink) WithValues(...interface{}) logr.LogSink { return p }
func (p preemptSink) WithName(string) logr.LogSink           { return p }
func (preemptSink) Info(level int, msg string, kv ...interface{}) {
	switch msg {
	case "Start the preemption asynchronously":
		preempting.Add(1)
	case "Async Preemption finished completely":
		preempting.Add(-1)
	}
	if level <= 5 {
		debugf("%d %s %v", level, msg, kv)
	}
}

var debug, plugins = os.Getenv("WASDRA_ORACLE_DEBUG") != "", os.Getenv("WASDRA_ORACLE_PLUGINS") != ""

// debugf prints the scheduler's errors and messages up to V(5) on stderr when WASDRA_ORACLE_DEBUG is set.
func debugf(format string, args ...interface{}) {
	if debug {
		fmt.Fprintf(os.Stderr, format+"\n", args...)
	}
}

type scoreChild struct {
	root   *scoreSink
	values []interface{}
}

func (c *scoreChild) Init(logr.RuntimeInfo)               {}
func (c *scoreChild) Enabled(level int) bool              { return true }
func (c *scoreChild) Error(error, string, ...interface{}) {}
func (c *scoreChild) WithName(string) logr.LogSink        { return c }
func (c *scoreChild) Info(level int, msg string, kv ...interface{}) {
	if level <= 5 {
		debugf("%d %s %v %v", level, msg, c.values, kv)
	}
	c.root.record(msg, kv)
}
func (c *scoreChild) WithValues(kv ...interface{}) logr.LogSink {
	return &scoreChild{root: c.root, values: append(append([]interface{}{}, c.values...), kv...)}
}

func kvGet(kv []interface{}, name string) interface{} {
	for i := 0; i+1 < len(kv); i += 2 {
		if k, ok := kv[i].(string); ok && k == name {
			return kv[i+1]
		}
	}
	return nil
}

func podKey(v interface{}) string {
	if r, ok := v.(klog.ObjectRef); ok {
		return key(r.Namespace, r.Name)
	}
	return fmt.Sprint(v)
}

func (s *scoreSink) record(msg string, kv []interface{}) {
	switch msg {
	case "Attempting to schedule pod", "Attempting to schedule a pod belonging to a pod group":
		p := podKey(kvGet(kv, "pod"))
		s.mu.Lock()
		s.scores[p] = map[string]int64{}
		s.plugins[p] = map[string]map[string]int64{}
		s.attempts[p]++
		s.started[p] = time.Now().UnixNano()
		s.mu.Unlock()
	case "Plugin scored node for pod":
		if !plugins {
			return
		}
		p := podKey(kvGet(kv, "pod"))
		node, plugin := fmt.Sprint(kvGet(kv, "node")), fmt.Sprint(kvGet(kv, "plugin"))
		score, _ := kvGet(kv, "score").(int64)
		s.mu.Lock()
		if s.plugins[p] == nil {
			s.plugins[p] = map[string]map[string]int64{}
		}
		if s.plugins[p][node] == nil {
			s.plugins[p][node] = map[string]int64{}
		}
		s.plugins[p][node][plugin] = score
		s.mu.Unlock()
	case "Calculated node's final score for pod":
		p := podKey(kvGet(kv, "pod"))
		node := fmt.Sprint(kvGet(kv, "node"))
		score, _ := kvGet(kv, "score").(int64)
		s.mu.Lock()
		if s.scores[p] == nil {
			s.scores[p] = map[string]int64{}
		}
		s.scores[p][node] = score
		s.mu.Unlock()
	}
}

// client is the fake clientset with what the API server adds: resourceVersion on every write (the assume cache
// ignores updates whose resourceVersion does not grow) and the binding subresource.
type client struct {
	*fake.Clientset
	rv      atomic.Int64
	changed atomic.Int64 // unix nanos of the last write that can change another pod's outcome
	mu      sync.Mutex
	deleted []string
}

// stamp sets what the API server sets on every write: a new resourceVersion, and a uid on creation (the scheduler
// keys in-flight claim allocations by uid).
func (c *client) stamp(obj runtime.Object) {
	if m, err := meta.Accessor(obj); err == nil {
		rv := c.rv.Add(1)
		m.SetResourceVersion(strconv.FormatInt(rv, 10))
		if m.GetUID() == "" {
			m.SetUID(types.UID(fmt.Sprintf("uid-%d", rv)))
		}
	}
}

func newClient(objs []runtime.Object) *client {
	c := &client{}
	c.rv.Store(100)
	for _, o := range objs {
		c.stamp(o)
	}
	c.Clientset = fake.NewClientset(objs...)
	tracker := c.Clientset.Tracker()
	c.PrependReactor("*", "*", func(action clienttesting.Action) (bool, runtime.Object, error) {
		verb := action.GetVerb()
		if verb == "get" || verb == "list" || verb == "watch" {
			return false, nil, nil
		}
		if significant(action) {
			c.changed.Store(time.Now().UnixNano())
		}
		switch a := action.(type) {
		case clienttesting.CreateAction:
			if a.GetSubresource() == "binding" {
				return true, nil, bind(c, tracker, a)
			}
			c.stamp(a.GetObject())
		case clienttesting.UpdateAction:
			c.stamp(a.GetObject())
		case clienttesting.PatchAction:
			handled, obj, err := clienttesting.ObjectReaction(tracker)(action)
			if err != nil || !handled || obj == nil {
				return handled, obj, err
			}
			c.stamp(obj)
			err = tracker.Update(action.GetResource(), obj, a.GetNamespace())
			return true, obj, err
		case clienttesting.DeleteAction:
			if a.GetResource().Resource == "pods" {
				c.mu.Lock()
				c.deleted = append(c.deleted, key(a.GetNamespace(), a.GetName()))
				c.mu.Unlock()
			}
		}
		return false, nil, nil
	})
	return c
}

// significant is true for writes that can change where other pods fit: bindings, deletions, claim allocations; not for
// status conditions, events or pod group status.
func significant(action clienttesting.Action) bool {
	res, sub := action.GetResource().Resource, action.GetSubresource()
	switch {
	case action.GetVerb() == "delete":
		return true
	case res == "pods" && sub == "binding":
		return true
	case res == "pods":
		// a nomination: preemption deletes the victims next, asynchronously
		patch, ok := action.(clienttesting.PatchAction)
		return ok && strings.Contains(string(patch.GetPatch()), `"nominatedNodeName":"`) &&
			!strings.Contains(string(patch.GetPatch()), `"nominatedNodeName":""`)
	case res == "resourceclaims":
		return true
	}
	return false
}

var podsGVR = schema.GroupVersionResource{Version: "v1", Resource: "pods"}

func bind(c *client, tracker clienttesting.ObjectTracker, a clienttesting.CreateAction) error {
	b, ok := a.GetObject().(*v1.Binding)
	if !ok {
		return fmt.Errorf("binding: unexpected object %T", a.GetObject())
	}
	obj, err := tracker.Get(podsGVR, b.Namespace, b.Name)
	if err != nil {
		return err
	}
	pod := obj.(*v1.Pod).DeepCopy()
	if pod.Spec.NodeName != "" {
		return fmt.Errorf("pod %s/%s is already assigned to node %q", pod.Namespace, pod.Name, pod.Spec.NodeName)
	}
	pod.Spec.NodeName = b.Target.Name
	setCondition(pod, v1.PodCondition{Type: v1.PodScheduled, Status: v1.ConditionTrue})
	c.stamp(pod)
	return tracker.Update(podsGVR, pod, pod.Namespace)
}

func setCondition(pod *v1.Pod, cond v1.PodCondition) {
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == cond.Type {
			pod.Status.Conditions[i] = cond
			return
		}
	}
	pod.Status.Conditions = append(pod.Status.Conditions, cond)
}

func runScenario(sc *Scenario, gates string, timeout time.Duration) *Result {
	start := time.Now()
	res := &Result{ID: sc.ID, Pods: map[string]*PodResult{}}
	if g := gateString(sc.FeatureGates); g != gates && len(sc.FeatureGates) > 0 {
		res.Error = fmt.Sprintf("scenario wants feature gates %q, the oracle runs with %q", g, gates)
		return res
	}
	w, err := load(sc)
	if err != nil {
		res.Error = err.Error()
		return res
	}
	for k, why := range w.rejected {
		res.Pods[k] = &PodResult{Rejected: why}
	}
	defer func() { res.Seconds = time.Since(start).Seconds() }()
	timedOut, err := schedule(w, res, timeout)
	res.TimedOut = timedOut
	if err != nil {
		res.Error = err.Error()
	}
	return res
}

func schedule(w *world, res *Result, timeout time.Duration) (bool, error) {
	sink := &scoreSink{scores: map[string]map[string]int64{}, attempts: map[string]int{}, started: map[string]int64{},
		plugins: map[string]map[string]map[string]int64{}}
	ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), logr.New(sink)))
	defer cancel()
	c := newClient(w.objs)
	rec := &recorder{victims: map[string][]string{}}
	factory := scheduler.NewInformerFactory(c, 0)
	sched, err := scheduler.New(ctx, c, factory, nil,
		profile.RecorderFactory(func(string) events.EventRecorderLogger { return rec }),
		scheduler.WithPodInitialBackoffSeconds(1), scheduler.WithPodMaxBackoffSeconds(1))
	if err != nil {
		return false, err
	}
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	for i, p := range w.pending {
		p.CreationTimestamp = metav1.NewTime(time.Unix(1700000000+int64(i), 0))
		if _, err := c.CoreV1().Pods(p.Namespace).Create(ctx, p, metav1.CreateOptions{}); err != nil {
			return false, fmt.Errorf("create pod %s/%s: %w", p.Namespace, p.Name, err)
		}
		if !waitFor(func() bool { _, ok := sched.SchedulingQueue.GetPod(p.Name, p.Namespace); return ok }, 5*time.Second) {
			return false, fmt.Errorf("pod %s/%s never reached the queue", p.Namespace, p.Name)
		}
	}
	// cycle is held by the scheduling loop from the pop to the end of ScheduleOne, so that the harness can wait for a
	// cycle under way to end (a pod group's cycle writes its pods' conditions only at its end) and stop the next.
	var cycle sync.Mutex
	var busy, repeat atomic.Bool
	held := false // touched by the scheduling loop's goroutine only
	pop := sched.NextPod
	sched.NextPod = func(logger klog.Logger) (*framework.QueuedPodInfo, error) {
		info, err := pop(logger)
		cycle.Lock()
		held = true
		again := false
		if info != nil && info.Pod != nil {
			sink.mu.Lock()
			again = sink.started[key(info.Pod.Namespace, info.Pod.Name)] > c.changed.Load()
			sink.mu.Unlock()
		}
		repeat.Store(again)
		busy.Store(true)
		return info, err
	}
	sched.SchedulingQueue.Run(klog.FromContext(ctx))
	go func() {
		for ctx.Err() == nil {
			sched.ScheduleOne(ctx)
			busy.Store(false)
			if held {
				held = false
				cycle.Unlock()
			}
		}
	}()
	c.changed.Store(time.Now().UnixNano())
	deadline := time.Now().Add(timeout)
	quiet := 0
	timedOut := true
	for time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		if settled(w, c, sched, sink, busy.Load() && !repeat.Load()) {
			quiet++
		} else {
			quiet = 0
		}
		if quiet >= 3 {
			timedOut = false
			break
		}
	}
	// Collect between cycles: a gang whose pods' own condition writes requeue each other is retried without end
	// (SchedulerPopFromBackoffQ pops the backoff queue when the active queue is empty), and a cut inside its cycle
	// would find pods without a PodScheduled condition.
	locked := waitFor(cycle.TryLock, 10*time.Second)
	collect(w, c, rec, sink, res)
	cancel()
	if locked {
		cycle.Unlock()
	}
	return timedOut, nil
}

// settled is true when nothing more can happen: since the last write that could change where pods fit, every pending
// pod was bound, or tried again, or sits among the unschedulable pods (no event moved it back, or a PreEnqueue plugin
// holds it).
func settled(w *world, c *client, sched *scheduler.Scheduler, sink *scoreSink, firstCycle bool) bool {
	changed := c.changed.Load()
	if time.Now().UnixNano()-changed < int64(100*time.Millisecond) {
		return false
	}
	pods, summary := sched.SchedulingQueue.PendingPods()
	var active, backoff, unsched int
	if _, err := fmt.Sscanf(summary, "activeQ:%d; backoffQ:%d; unschedulablePods:%d", &active, &backoff, &unsched); err != nil {
		return false
	}
	parked := map[string]bool{}
	for _, p := range pods[active+backoff:] {
		parked[key(p.Namespace, p.Name)] = true
	}
	tracker := c.Tracker()
	sink.mu.Lock()
	defer sink.mu.Unlock()
	if preempting.Load() > 0 {
		// Victims are deleted by a goroutine of their own while the preemptor waits in PreEnqueue
		// (framework/preemption/executor.go prepareCandidateAsync): parked does not mean settled until it ends.
		return false
	}
	if firstCycle {
		// A first cycle since the last change is under way (a repeated one changes nothing). Decided per cycle, at
		// its pop: a pod-group cycle logs an attempt per pod and placement.
		return false
	}
	for _, p := range w.pending {
		k := key(p.Namespace, p.Name)
		if assumed, _ := sched.Cache.IsAssumedPod(p); assumed {
			return false // being bound
		}
		if parked[k] || sink.started[k] > changed {
			continue
		}
		obj, err := tracker.Get(podsGVR, p.Namespace, p.Name)
		if err != nil || obj.(*v1.Pod).Spec.NodeName != "" {
			continue
		}
		return false
	}
	return true
}

func waitFor(cond func() bool, limit time.Duration) bool {
	end := time.Now().Add(limit)
	for time.Now().Before(end) {
		if cond() {
			return true
		}
		time.Sleep(time.Millisecond)
	}
	return false
}

var claimsGVR = schema.GroupVersionResource{Group: "resource.k8s.io", Version: "v1", Resource: "resourceclaims"}

func collect(w *world, c *client, rec *recorder, sink *scoreSink, res *Result) {
	tracker := c.Tracker()
	sink.mu.Lock()
	defer sink.mu.Unlock()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, p := range w.pending {
		k := key(p.Namespace, p.Name)
		r := &PodResult{Victims: rec.victims[k], Scores: sink.scores[k], Attempts: sink.attempts[k]}
		if plugins {
			r.Plugins = sink.plugins[k]
		}
		res.Pods[k] = r
		obj, err := tracker.Get(podsGVR, p.Namespace, p.Name)
		if err != nil {
			r.Reason = "Deleted"
			continue
		}
		pod := obj.(*v1.Pod)
		r.Node = pod.Spec.NodeName
		r.Nominated = pod.Status.NominatedNodeName
		for _, cond := range pod.Status.Conditions {
			if cond.Type == v1.PodScheduled && cond.Status == v1.ConditionFalse {
				r.Reason, r.Message = cond.Reason, cond.Message
			}
		}
		sort.Strings(r.Victims)
		for _, pc := range pod.Spec.ResourceClaims {
			name := ""
			if pc.ResourceClaimName != nil {
				name = *pc.ResourceClaimName
			}
			for _, st := range pod.Status.ResourceClaimStatuses {
				if st.Name == pc.Name && st.ResourceClaimName != nil {
					name = *st.ResourceClaimName
				}
			}
			if name == "" {
				continue
			}
			cobj, err := tracker.Get(claimsGVR, p.Namespace, name)
			if err != nil {
				continue
			}
			claim := cobj.(*resourcev1.ResourceClaim)
			if claim.Status.Allocation == nil {
				continue
			}
			if r.Claims == nil {
				r.Claims = map[string][]Alloc{}
			}
			allocs := []Alloc{}
			for _, d := range claim.Status.Allocation.Devices.Results {
				allocs = append(allocs, Alloc{Request: d.Request, Driver: d.Driver, Pool: d.Pool, Device: d.Device})
			}
			r.Claims[pc.Name] = allocs
		}
	}
	c.mu.Lock()
	res.Deleted = append([]string{}, c.deleted...)
	c.mu.Unlock()
	sort.Strings(res.Deleted)
}

// applyTaintRules puts each DeviceTaintRule's taint on the devices its selector names, in the ResourceSlices, as the
// slice tracker would present them (staging/src/k8s.io/dynamic-resource-allocation/resourceslice/tracker).
func applyTaintRules(objs []runtime.Object, rules []runtime.Object) {
	type selector struct {
		Driver, Pool, Device *string
	}
	type rule struct {
		Spec struct {
			DeviceSelector *selector              `json:"deviceSelector"`
			Taint          resourcev1.DeviceTaint `json:"taint"`
		} `json:"spec"`
	}
	for _, ro := range rules {
		raw, err := json.Marshal(ro)
		if err != nil {
			continue
		}
		var r rule
		if json.Unmarshal(raw, &r) != nil {
			continue
		}
		sel := r.Spec.DeviceSelector
		for _, o := range objs {
			slice, ok := o.(*resourcev1.ResourceSlice)
			if !ok {
				continue
			}
			if sel != nil && sel.Driver != nil && *sel.Driver != slice.Spec.Driver {
				continue
			}
			if sel != nil && sel.Pool != nil && *sel.Pool != slice.Spec.Pool.Name {
				continue
			}
			for i := range slice.Spec.Devices {
				d := &slice.Spec.Devices[i]
				if sel != nil && sel.Device != nil && *sel.Device != d.Name {
					continue
				}
				t := r.Spec.Taint
				if t.TimeAdded == nil {
					now := metav1.Now()
					t.TimeAdded = &now
				}
				d.Taints = append(d.Taints, t)
			}
		}
	}
}
