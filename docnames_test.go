package bloom_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// apiNames is every exported name of this repository's Go packages (the
// library, its nested modules and the tool), read from the source files:
// byPkg[package]["Name"] and byPkg[package]["Type.Member"] for methods and
// struct fields, and anyPkg, the same keys over all packages.
type apiNames struct {
	byPkg  map[string]map[string]bool
	anyPkg map[string]bool
	types  map[string]bool // exported type names, any package
}

// pkgAliases are the names the docs use for a package other than its own
// (none since package parquet became sbparquet).
var pkgAliases = map[string]string{}

func (a *apiNames) add(pkg, name string) {
	if a.byPkg[pkg] == nil {
		a.byPkg[pkg] = map[string]bool{}
	}
	a.byPkg[pkg][name] = true
	a.anyPkg[name] = true
}

// docFile is one parsed Go file of the repository, for its doc comments.
type docFile struct {
	path string
	pkg  string
	file *ast.File
}

// readAPI parses every Go file under root (nested modules included; the
// generator, benchmarks and testdata left out) and records exported names.
func readAPI(t *testing.T, root string) (*apiNames, []docFile) {
	t.Helper()
	a := &apiNames{byPkg: map[string]map[string]bool{}, anyPkg: map[string]bool{}, types: map[string]bool{}}
	var files []docFile
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch name := d.Name(); {
			case path == root:
			case strings.HasPrefix(name, "."), name == "testdata", name == "asm", name == "bench":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		pkg := strings.TrimSuffix(f.Name.Name, "_test")
		if !strings.HasSuffix(path, "_test.go") {
			files = append(files, docFile{path, pkg, f})
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv == nil {
					a.add(pkg, d.Name.Name)
				} else if recv := recvName(d.Recv.List[0].Type); recv != "" {
					a.add(pkg, recv+"."+d.Name.Name)
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						a.add(pkg, s.Name.Name)
						a.types[s.Name.Name] = true
						var fields *ast.FieldList
						switch tt := s.Type.(type) {
						case *ast.StructType:
							fields = tt.Fields
						case *ast.InterfaceType:
							fields = tt.Methods
						}
						if fields == nil {
							continue
						}
						for _, fld := range fields.List {
							for _, n := range fld.Names {
								if n.IsExported() {
									a.add(pkg, s.Name.Name+"."+n.Name)
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								a.add(pkg, n.Name)
							}
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return a, files
}

// recvName is the type name of a method's receiver, without pointer or
// type parameters.
func recvName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

var (
	// pkg.Name, pkg.Name[K], pkg.Name.Member, not after a path or a dot.
	qualifiedRE = regexp.MustCompile(`(?:^|[^\w/.\-])(bloom|blocked|cuckoo|parquet|sbparquet|sbpebble|sbredis)\.([A-Z]\w*)(?:\[[^\]\s]*\])?(?:\.([A-Z]\w*))?`)
	// Type.Member or Type[K].Member, not after a dot or a path.
	memberRE = regexp.MustCompile(`(?:^|[^\w/.\-])([A-Z]\w*)(?:\[[^\]\s]*\])?\.([A-Z]\w*)`)
	// Name( : a call of an exported function or method.
	callRE = regexp.MustCompile(`(?:^|[^\w/.\-])([A-Z]\w*)\(`)
	// a compound name: a lower-case letter before an upper-case one.
	camelRE = regexp.MustCompile(`[a-z][A-Z]`)
	// a code span in Markdown.
	codeSpanRE = regexp.MustCompile("`([^`\n]+)`")
)

// checkText reports the names text mentions that do not exist. pkg is the
// package whose doc comment text is ("" for Markdown, where a bare name may
// be of any package).
func (a *apiNames) checkText(text, pkg string) []string {
	var bad []string
	for _, m := range qualifiedRE.FindAllStringSubmatch(text, -1) {
		p := m[1]
		if alias, ok := pkgAliases[p]; ok {
			p = alias
		}
		name := m[2]
		if !a.byPkg[p][name] && !foreignNames[m[1]+"."+name] {
			bad = append(bad, m[1]+"."+name)
			continue
		}
		if m[3] != "" && a.types[name] && !a.byPkg[p][name+"."+m[3]] {
			bad = append(bad, m[1]+"."+name+"."+m[3])
		}
	}
	scope := a.anyPkg
	if pkg != "" {
		scope = a.byPkg[pkg]
	}
	for _, m := range memberRE.FindAllStringSubmatch(text, -1) {
		typ, member := m[1], m[2]
		if !a.types[typ] || !a.hasType(scope, pkg, typ) {
			continue // not one of ours (or another package's type, qualified above)
		}
		if !a.anyMember(typ, member) {
			bad = append(bad, typ+"."+member)
		}
	}
	for _, m := range callRE.FindAllStringSubmatch(text, -1) {
		name := m[1]
		if scope[name] || a.hasMethod(scope, name) || foreignNames[name] {
			continue
		}
		// A compound name (UnmarshalBinary) must exist somewhere; a plain
		// word (Size, Poisson) only when another package of ours has it,
		// for a doc comment that names it without its package.
		if camelRE.MatchString(name) && !a.anyPkg[name] || pkg != "" && a.anyPkg[name] {
			bad = append(bad, name+"(")
		}
	}
	return bad
}

func (a *apiNames) hasType(scope map[string]bool, pkg, typ string) bool {
	return pkg == "" || scope[typ]
}

func (a *apiNames) anyMember(typ, member string) bool {
	for _, names := range a.byPkg {
		if names[typ+"."+member] {
			return true
		}
	}
	return false
}

// hasMethod reports whether names holds a method or field called name.
func (a *apiNames) hasMethod(names map[string]bool, name string) bool {
	for key := range names {
		if strings.HasSuffix(key, "."+name) {
			return true
		}
	}
	return false
}

// foreignNames are other projects' names the docs give: Pebble's
// bloom.FilterPolicy, and doc.go's pattern names (NewT, SizeT).
var foreignNames = map[string]bool{"bloom.FilterPolicy": true, "NewT": true, "SizeT": true}

// TestDocNamesExist checks every name the Markdown docs (README.md,
// FORMAT.md, PERF.md, docs/) mention in code spans or Go blocks, and every
// doc comment of the repository's packages, against the exported names of
// the source: pkg.Name, pkg.Type.Member, Type.Member of one of our types, and
// calls Name(...). A name removed or renamed while a doc still gives it
// fails here.
func TestDocNamesExist(t *testing.T) {
	a, files := readAPI(t, ".")
	type finding struct{ where, name string }
	var found []finding
	mds, _ := filepath.Glob("docs/*.md")
	mds = append([]string{"README.md", "FORMAT.md", "PERF.md"}, mds...)
	fenceRE := regexp.MustCompile("(?s)```go\n(.*?)```")
	for _, md := range mds {
		b, err := os.ReadFile(md)
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, m := range codeSpanRE.FindAllStringSubmatch(string(b), -1) {
			texts = append(texts, m[1])
		}
		for _, m := range fenceRE.FindAllStringSubmatch(string(b), -1) {
			texts = append(texts, m[1])
		}
		for _, text := range texts {
			for _, name := range a.checkText(text, "") {
				found = append(found, finding{md, name})
			}
		}
	}
	for _, f := range files {
		if f.pkg == "main" {
			continue // the tool's comments are not API docs
		}
		for _, text := range docComments(f.file) {
			for _, name := range a.checkText(text, f.pkg) {
				found = append(found, finding{f.path, name})
			}
		}
	}
	sort.Slice(found, func(i, j int) bool {
		if found[i].where != found[j].where {
			return found[i].where < found[j].where
		}
		return found[i].name < found[j].name
	})
	for _, f := range found {
		t.Errorf("%s names %s, which does not exist", f.where, f.name)
	}
}

// docComments are the doc comments of a file: the package's and every
// exported declaration's, fields included.
func docComments(f *ast.File) []string {
	var out []string
	add := func(g *ast.CommentGroup) {
		if g != nil {
			out = append(out, g.Text())
		}
	}
	add(f.Doc)
	ast.Inspect(f, func(n ast.Node) bool {
		switch d := n.(type) {
		case *ast.FuncDecl:
			if d.Name.IsExported() {
				add(d.Doc)
			}
			return false
		case *ast.GenDecl:
			add(d.Doc)
		case *ast.TypeSpec:
			add(d.Doc)
		case *ast.ValueSpec:
			add(d.Doc)
		case *ast.Field:
			add(d.Doc)
		}
		return true
	})
	return out
}
