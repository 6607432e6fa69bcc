fn main() {
    let path = std::env::args().nth(1).unwrap();
    let f = beagle_pcm::ModelFile::read(std::path::Path::new(&path)).unwrap();
    let s = beagle_analysis::scope_elements(f.repository.as_ref().unwrap(), &beagle_analysis::Scope::Repository).unwrap();
    for e in &s.elements { println!("{} {} {:?}", e.kind.name(), e.id, e.inputs); }
    for (k, v) in &s.services { println!("{k} {v:?}"); }
}
