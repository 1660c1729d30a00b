//! Differential test: random sequences of saves, replaces, scratches and renames applied to
//! a `Disk` and to a plain map of names to files must agree at every step, and the image
//! must read back the same after every write.

use d81::{Disk, DosError, FileType};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::collections::BTreeMap;

type Model = BTreeMap<Vec<u8>, (FileType, Vec<u8>)>;

fn check(disk: &Disk, model: &Model) {
    let mut bytes = Vec::new();
    disk.write_to(&mut bytes).unwrap();
    let back = Disk::from_bytes(&bytes).expect("every state reads back");
    assert_eq!(back.entries().len(), model.len());
    let used: usize = model.values().map(|(_, d)| d81::blocks_for(d.len())).sum();
    assert_eq!(usize::from(back.blocks_free()), 3160 - used);
    for (name, (ty, data)) in model {
        let file = back.read(name).unwrap();
        assert_eq!(file.entry.file_type, *ty);
        assert_eq!(&file.data, data, "file {name:?}");
    }
}

#[test]
fn random_operations_agree_with_a_simple_model() {
    let mut rng = StdRng::seed_from_u64(81);
    let mut disk = Disk::new(b"MODEL", *b"MD").unwrap();
    let mut model = Model::new();
    let names: Vec<Vec<u8>> = (0..12).map(|i| format!("N{i}").into_bytes()).collect();
    let types = [FileType::Prg, FileType::Seq, FileType::Usr];
    // How often each refusal happened, so the test shows it exercised them.
    let (mut full, mut exists, mut missing) = (0, 0, 0);
    for step in 0..400 {
        let name = names[rng.random_range(0..names.len())].clone();
        let ty = types[rng.random_range(0..3)];
        // Mostly small files, sometimes big ones, so the disk fills up now and then.
        let len = if rng.random_bool(0.2) { rng.random_range(100_000..500_000) } else { rng.random_range(0..2_000) };
        let data: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        let used: usize = model.values().map(|(_, d)| d81::blocks_for(d.len())).sum();
        let free = 3160 - used;
        match rng.random_range(0..4) {
            0 => match disk.write_file(&name, ty, &data) {
                Ok(_) => {
                    assert!(!model.contains_key(&name) && d81::blocks_for(len) <= free);
                    model.insert(name, (ty, data));
                }
                Err(DosError::FileExists { .. }) => {
                    assert!(model.contains_key(&name));
                    exists += 1;
                }
                Err(DosError::DiskFull { .. }) => {
                    assert!(d81::blocks_for(len) > free);
                    full += 1;
                }
                Err(e) => panic!("step {step}: {e}"),
            },
            1 => match disk.replace_file(&name, ty, &data) {
                Ok(_) => {
                    model.insert(name, (ty, data));
                }
                // The old copy is freed only after the new one is written.
                Err(DosError::DiskFull { .. }) => {
                    assert!(d81::blocks_for(len) > free);
                    full += 1;
                }
                Err(e) => panic!("step {step}: {e}"),
            },
            2 if rng.random_bool(0.5) => match disk.append_file(&name, &data) {
                Ok(_) => {
                    let (_, old) = model.get_mut(&name).expect("appended to a file the model has");
                    let needed = d81::blocks_for(old.len() + len) - d81::blocks_for(old.len());
                    assert!(needed <= free);
                    old.extend_from_slice(&data);
                }
                Err(DosError::FileNotFound { .. }) => assert!(!model.contains_key(&name)),
                Err(DosError::DiskFull { .. }) => {
                    let old = &model[&name].1;
                    assert!(d81::blocks_for(old.len() + len) - d81::blocks_for(old.len()) > free);
                    full += 1;
                }
                Err(e) => panic!("step {step}: {e}"),
            },
            2 => {
                let count = disk.scratch(&name).unwrap();
                assert_eq!(count, u8::from(model.remove(&name).is_some()));
            }
            _ => {
                let new = names[rng.random_range(0..names.len())].clone();
                match disk.rename(&name, &new) {
                    Ok(_) => {
                        assert!(!model.contains_key(&new));
                        let file = model.remove(&name).expect("renamed a file the model has");
                        model.insert(new, file);
                    }
                    Err(DosError::FileExists { .. }) => assert!(model.contains_key(&new)),
                    Err(DosError::FileNotFound { .. }) => {
                        assert!(!model.contains_key(&name));
                        missing += 1;
                    }
                    Err(e) => panic!("step {step}: {e}"),
                }
            }
        }
        check(&disk, &model);
    }
    assert!(full > 0 && exists > 0 && missing > 0, "full {full}, exists {exists}, missing {missing}");
}
