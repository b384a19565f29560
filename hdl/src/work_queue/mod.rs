//! Work-queue based work creation (SPEC section 4, WQ-1..WQ-11): the rings of work-queue
//! entries, the host interface that executes them, the soft/shadow GP_PUT allocator GPU
//! threads create work with, the semaphores, and the top block composing them.
//!
//! | block | what | SPEC |
//! | --- | --- | --- |
//! | [`ring_wrap::RingWrap`] | wrap(x, n), AND form and compare form | WQ-2 |
//! | [`gp_fifo::GpFifo`] | GP_GET / GP_PUT of one channel, empty and full | WQ-1 |
//! | [`soft_put_allocator::SoftPutAllocator`] | atomic add on soft GP_PUT against shadow GP_PUT | WQ-5, WQ-6 |
//! | [`semaphore_memory::SemaphoreMemory`] | S[i] per entry, X, Y | WQ-5, WQ-6 |
//! | [`acquire_check::AcquireCheck`] | the five acquire conditions | WQ-4 |
//! | [`host_interface::HostInterface`] | fetch and execute entries of two channels, watchdog | WQ-3, WQ-4, WQ-10 |
//! | [`wq_cluster::WqCluster`] | the top block | WQ-1..WQ-10 |
//! | [`gp_entry`] | the public 8-byte GPFIFO entry layout (software pack/unpack) | WQ-9 |
//! | [`command`] | command-block encoding (software encode/decode) | WQ-4 |
pub mod acquire_check;
pub mod command;
pub mod gp_entry;
pub mod gp_fifo;
pub mod host_interface;
pub mod ring_wrap;
pub mod semaphore_memory;
pub mod soft_put_allocator;
pub mod wq_cluster;
