//! Debugging aid: runs an AVR ELF on the reference interpreter (relocated as translated)
//! and reports the first instructions that write the watched data addresses.
use avr2mos::avrsim::Avr;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let elf = std::fs::read(&args[1]).expect("elf");
    let lo = u16::from_str_radix(&args[2], 16).expect("hex");
    let hi = u16::from_str_radix(&args[3], 16).expect("hex");
    let prog = avr2mos::AvrProgram::from_elf(&elf).expect("parse");
    let t = avr2mos::translate_with(&prog, &avr2mos::Options { adjust_all: true, ..Default::default() })
        .expect("translate");
    let mut avr = Avr::new(t.relocated_text.clone(), prog.entry, avr2mos::mmap::STACK_TOP - 2);
    let load = 0x1C01usize;
    avr.mem[load..load + t.prg.len() - 2].copy_from_slice(&t.prg[2..]);
    avr.ptr_table = prog.functions.iter().filter_map(|f| Some((t.symbol(&f.name)?, f.addr))).collect();
    avr.code_ptr = |a, z| a.ptr_table.iter().find(|(p, _)| *p == z).map(|&(_, x)| x);
    let mut hits = 0;
    for _ in 0..50_000_000u64 {
        let before: Vec<u8> = avr.mem[lo as usize..=hi as usize].to_vec();
        let pc = avr.pc;
        let sp = avr.sp;
        if let Some(stop) = avr.step() {
            println!("stop {stop:?} at {}; output {:?}", prog.locate(pc), String::from_utf8_lossy(&avr.output));
            break;
        }
        if avr.mem[lo as usize..=hi as usize] != before[..] {
            println!("{} sp={sp:04x} wrote {:02x?}", prog.locate(pc), &avr.mem[lo as usize..=hi as usize]);
            hits += 1;
            if hits > 30 {
                break;
            }
        }
    }
}
